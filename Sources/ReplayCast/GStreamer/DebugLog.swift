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
///
/// Each element declares its own next to its class: `extension DebugLog { static let
/// volumemeter = DebugLog("volumemeter") }`, the name being the element's row in `RC_ELEMENTS`.
// A category lives as long as the process, and GStreamer reads and sets its threshold
// atomically: the pointer is safe to share.
struct DebugLog: @unchecked Sendable {
    private let category: UnsafeMutablePointer<GstDebugCategory>

    init(_ name: String) {
        guard let category = rc_debug_category(name) else {
            preconditionFailure("no debug category \(name): RC_ELEMENTS in rc_debug.h lists every element's")
        }
        self.category = category
    }

    func enabled(_ level: GstDebugLevel) -> Bool { gst_debug_category_get_threshold(category).rawValue >= level.rawValue }

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
