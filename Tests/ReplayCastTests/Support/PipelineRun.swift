// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation

/// Runs a gst-launch style description to EOS (or error, or timeout) and keeps every
/// element message and the first error.
struct PipelineRun {
    struct Failure: Error, CustomStringConvertible {
        let source: String
        let text: String
        let debug: String
        var description: String { "\(source): \(text) (\(debug))" }
    }

    var elementMessages: [(source: String, fields: Fields)] = []
    var error: Failure?
    /// Texts of the warning messages, in order.
    var warnings: [String] = []
    var reachedEOS = false
    var timedOut = false

    func messages(from source: String, named name: String) -> [Fields] {
        elementMessages.filter { $0.source == source && $0.fields.name == name }.map(\.fields)
    }

    /// The pipeline of a launch line, or the parser's error. A link that fails still gives
    /// a half-built pipeline with the error; it is freed here, not leaked.
    static func parse(_ description: String) throws -> UnsafeMutablePointer<GstElement> {
        GStreamerSetup.ensure()
        var parseError: UnsafeMutablePointer<GError>?
        let pipeline = gst_parse_launch(description, &parseError)
        if let pipeline, parseError == nil { return pipeline }
        if let pipeline { gst_object_unref(pipeline) }
        let text = parseError.map { String(cString: $0.pointee.message) } ?? "unknown"
        g_clear_error(&parseError)
        throw Failure(source: "parser", text: text, debug: description)
    }

    /// `prepare` runs on the parsed pipeline before it plays (attach recorders there);
    /// `whilePlaying` right after it was set to PLAYING; `finished` after EOS, error or
    /// timeout, before the pipeline stops.
    static func run(_ description: String, timeout: Double = 30,
                    prepare: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                    whilePlaying: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                    finished: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil) throws -> PipelineRun {
        let pipeline = try parse(description)
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
        }
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        var run = PipelineRun()
        prepare?(pipeline)
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        whilePlaying?(pipeline)
        let deadline = Date().addingTimeInterval(timeout)
        let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ELEMENT.rawValue
                                  | GST_MESSAGE_WARNING.rawValue)
        loop: while true {
            guard Date() < deadline else { run.timedOut = true; break }
            guard let message = gst_bus_timed_pop_filtered(bus, 100_000_000, mask) else { continue }
            defer { gst_message_unref(message) }
            let source = message.pointee.src.map { String(cString: rc_object_name($0)) } ?? ""
            switch message.pointee.type {
            case GST_MESSAGE_EOS:
                run.reachedEOS = true
                break loop
            case GST_MESSAGE_ERROR:
                var gerror: UnsafeMutablePointer<GError>?
                var debug: UnsafeMutablePointer<gchar>?
                gst_message_parse_error(message, &gerror, &debug)
                run.error = Failure(source: source, text: gerror.map { String(cString: $0.pointee.message) } ?? "",
                                    debug: debug.map { String(cString: $0) } ?? "")
                g_clear_error(&gerror)
                g_free(debug)
                break loop
            case GST_MESSAGE_WARNING:
                var gerror: UnsafeMutablePointer<GError>?
                gst_message_parse_warning(message, &gerror, nil)
                run.warnings.append(gerror.map { String(cString: $0.pointee.message) } ?? "")
                g_clear_error(&gerror)
            default:
                if let s = gst_message_get_structure(message) {
                    run.elementMessages.append((source, Fields(s)))
                }
            }
        }
        finished?(pipeline)
        return run
    }
}
