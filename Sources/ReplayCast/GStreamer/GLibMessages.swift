import CGStreamer

/// g_warning and g_critical, which are variadic macros, through g_logv with a finished
/// message: the same default domain, handlers and fatal mask (G_DEBUG=fatal-warnings).
enum GLibMessages {
    static func warning(_ text: String) { log(G_LOG_LEVEL_WARNING, text) }
    static func critical(_ text: String) { log(G_LOG_LEVEL_CRITICAL, text) }

    private static func log(_ level: GLogLevelFlags, _ text: String) {
        text.withCString { message in withVaList([message]) { g_logv(nil, level, "%s", $0) } }
    }
}
