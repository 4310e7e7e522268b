// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// An element's GStreamer debug category, for Swift: `log.info(element, "…")` writes to
/// GStreamer's debug log under the element's factory name, so `GST_DEBUG=dualmixer:5`
/// shows it as it would a C element's. The message is built only when the category's
/// threshold lets it through, so a disabled log costs one comparison on the hot path.
///
/// Levels, as in GStreamer's own elements: `warning` for what went wrong but was handled
/// (a refused request, a lost connection), `info` for what is decided once or rarely (caps,
/// the broadcast's state changes), `debug` for what a user debugging flow looks for
/// (realignments, dropped samples, restarts), `log` for per-buffer and per-frame decisions.
struct DebugLog: Sendable {
    let category: RcLogCategory

    static let volumemeter = DebugLog(category: RC_LOG_VOLUMEMETER)
    static let replaykitsrc = DebugLog(category: RC_LOG_REPLAYKITSRC)
    static let dualmixer = DebugLog(category: RC_LOG_DUALMIXER)
    static let pipcompositor = DebugLog(category: RC_LOG_PIPCOMPOSITOR)
    static let rtmpreconnectsink = DebugLog(category: RC_LOG_RTMPRECONNECTSINK)

    func enabled(_ level: GstDebugLevel) -> Bool { rc_debug_threshold(category).rawValue >= level.rawValue }

    func warning(_ object: UnsafeMutableRawPointer?, _ message: @autoclosure () -> String,
                 file: StaticString = #fileID, function: StaticString = #function, line: Int = #line) {
        write(GST_LEVEL_WARNING, object, message, file, function, line)
    }

    func info(_ object: UnsafeMutableRawPointer?, _ message: @autoclosure () -> String,
              file: StaticString = #fileID, function: StaticString = #function, line: Int = #line) {
        write(GST_LEVEL_INFO, object, message, file, function, line)
    }

    func debug(_ object: UnsafeMutableRawPointer?, _ message: @autoclosure () -> String,
               file: StaticString = #fileID, function: StaticString = #function, line: Int = #line) {
        write(GST_LEVEL_DEBUG, object, message, file, function, line)
    }

    func log(_ object: UnsafeMutableRawPointer?, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, function: StaticString = #function, line: Int = #line) {
        write(GST_LEVEL_LOG, object, message, file, function, line)
    }

    private func write(_ level: GstDebugLevel, _ object: UnsafeMutableRawPointer?, _ message: () -> String,
                       _ file: StaticString, _ function: StaticString, _ line: Int) {
        guard enabled(level) else { return }
        rc_debug_log(category, level, object, "\(file)", "\(function)", gint(line), message())
    }
}
