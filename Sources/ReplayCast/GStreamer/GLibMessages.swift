// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// g_warning and g_critical, which are variadic macros, through g_logv with a finished
/// message: the same default domain, handlers and fatal mask (G_DEBUG=fatal-warnings).
enum GLibMessages {
    static func warning(_ text: String) { log(rc_log_level_warning(), text) }
    static func critical(_ text: String) { log(rc_log_level_critical(), text) }

    private static func log(_ level: GLogLevelFlags, _ text: String) {
        text.withCString { message in withVaList([message]) { g_logv(nil, level, "%s", $0) } }
    }
}
