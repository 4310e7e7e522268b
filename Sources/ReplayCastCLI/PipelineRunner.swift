import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import Synchronization

/// Set by SIGINT: the run loop answers by sending end-of-stream, so files are finished.
private let interruptions = Atomic<Int>(0)

/// Builds a pipeline, plays it, prints meters from its messages, and ends it cleanly.
struct PipelineRunner {
    let description: String
    let origin: PipelineFile?
    let duration: Double?
    let quiet: Bool

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Returns the process exit status: 0 after EOS, 1 after an error.
    func run() throws -> Int32 {
        gst_init(nil, nil)
        guard rc_plugin_register_static() != 0 else { throw Failure(description: "the replaycast plugin failed to register") }
        let pipeline = try parse()
        defer { gst_object_unref(pipeline) }
        HLSPlaylists.take(over: pipeline)
        signal(SIGINT) { _ in interruptions.add(1, ordering: .relaxed) }

        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        var meters = MeterDisplay(quiet: quiet)
        let started = Date()
        var endSent = false
        var status: Int32 = 0
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            status = 1
        }
        let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue |
                                  GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_WARNING.rawValue)
        loop: while true {
            let interrupted = interruptions.load(ordering: .relaxed)
            if interrupted > 1 { break }
            let timeUp = duration.map { Date().timeIntervalSince(started) >= $0 } ?? false
            if (interrupted == 1 || timeUp) && !endSent {
                gst_element_send_event(pipeline, gst_event_new_eos())
                endSent = true
            }
            guard let message = gst_bus_timed_pop_filtered(bus, 100_000_000, mask) else { continue }
            defer { gst_message_unref(message) }
            let source = message.pointee.src.map { String(cString: rc_object_name($0)) } ?? "?"
            switch message.pointee.type {
            case GST_MESSAGE_EOS:
                break loop
            case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
                let isError = message.pointee.type == GST_MESSAGE_ERROR
                var gerror: UnsafeMutablePointer<GError>?
                var debug: UnsafeMutablePointer<gchar>?
                if isError { gst_message_parse_error(message, &gerror, &debug) } else { gst_message_parse_warning(message, &gerror, &debug) }
                let text = gerror.map { String(cString: $0.pointee.message) } ?? ""
                meters.interrupt("\(isError ? "ERROR" : "WARNING") from \(source): \(text)")
                if let debug, !quiet { meters.interrupt("  \(String(cString: debug))") }
                g_clear_error(&gerror)
                g_free(debug)
                if isError { status = 1; break loop }
            default:
                if let structure = gst_message_get_structure(message) { meters.update(source: source, structure) }
            }
        }
        gst_element_set_state(pipeline, GST_STATE_NULL)
        meters.finish(seconds: Date().timeIntervalSince(started))
        return status
    }

    /// Plays `pipeline` until end-of-stream; the error's text (with the element that posted
    /// it), or a time-out, when it does not get there.
    static func runToEnd(_ pipeline: UnsafeMutablePointer<GstElement>, timeout: Double) -> String? {
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        let started = gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE
        let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        // A pipeline that cannot start has said why on the bus already.
        let limit = started ? GstClockTime(timeout * 1e9) : 0
        guard let message = gst_bus_timed_pop_filtered(bus, limit, mask) else {
            return started ? "no end of stream after \(timeout) s" : "the pipeline cannot start"
        }
        defer { gst_message_unref(message) }
        guard message.pointee.type == GST_MESSAGE_ERROR else { return nil }
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &gerror, &debug)
        defer { g_clear_error(&gerror); g_free(debug) }
        let source = message.pointee.src.map { String(cString: rc_object_name($0)) } ?? "?"
        return "\(source): " + (gerror.map { String(cString: $0.pointee.message) } ?? "error")
    }

    private func parse() throws -> UnsafeMutablePointer<GstElement> {
        var error: UnsafeMutablePointer<GError>?
        let pipeline = gst_parse_launch(description, &error)
        if let failure = error {
            let text = String(cString: failure.pointee.message)
            g_clear_error(&error)
            if let pipeline { gst_object_unref(pipeline) }
            if let origin {
                let location = origin.line(for: text).map { "\(origin.path):\($0)" } ?? origin.path
                throw Failure(description: "\(location): \(text)")
            }
            throw Failure(description: text)
        }
        guard let pipeline else { throw Failure(description: "empty pipeline") }
        return pipeline
    }
}
