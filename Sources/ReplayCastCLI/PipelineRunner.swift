// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastKit
import Synchronization

/// Ctrl-C: the first sends end-of-stream, so files are finished; one more, a second or more
/// later, stops at once. (A terminal's Ctrl-C often reaches the process twice at the same
/// moment, through a wrapper such as `timeout` as well: that is still the first.)
private let firstInterrupt = Atomic<Int>(0)
private let hardStop = Atomic<Bool>(false)

/// Milliseconds on the monotonic clock; async-signal-safe.
private func monotonicMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return max(1, now.tv_sec * 1000 + now.tv_nsec / 1_000_000)
}

/// Builds a pipeline, plays it, prints meters from its messages, and ends it cleanly.
struct PipelineRunner {
    let description: String
    let origin: PipelineFile?
    let duration: Double?
    let quiet: Bool
    /// `--serve`: where to serve the HLS output and the preview page.
    var serve: String?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Returns the process exit status: 0 after EOS, 1 after an error.
    func run() throws -> Int32 {
        gst_init(nil, nil)
        guard replaycast_init() != 0 else { throw Failure(description: "the replaycast plugin failed to register") }
        let pipeline = try parse()
        defer { gst_object_unref(pipeline) }
        HLSPlaylists.take(over: pipeline)
        let probes = PipelineProbes()
        probes.attach(to: pipeline)
        let server = try serve.map { try Self.previewServer($0, for: pipeline, title: origin?.path ?? "launch") }
        server?.start()
        defer { server?.stop() }
        if let server { say("preview: http://\(server.address):\(server.port)/ (serving \(server.folder))") }
        var lastPublished = -1.0
        // The screen or log lines, and the preview's events at most four times a second.
        func refresh() {
            display.show(broadcast, probes)
            if let server, broadcast.elapsed - lastPublished >= 0.25 {
                lastPublished = broadcast.elapsed
                server.publish(broadcast.json(probes))
            }
        }
        signal(SIGINT) { _ in
            let now = monotonicMilliseconds()
            let (first, original) = firstInterrupt.compareExchange(expected: 0, desired: now, ordering: .relaxed)
            if !first, now - original >= 1000 { hardStop.store(true, ordering: .relaxed) }
        }

        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        var broadcast = BroadcastStatus(title: origin.map { ($0.path as NSString).lastPathComponent } ?? "launch", pipeline: pipeline)
        var display: any StatusDisplay = isatty(STDOUT_FILENO) != 0 && !quiet ? StatusScreen() : StatusLog(quiet: quiet)
        var endSent = false
        var status: Int32 = 0
        /// After an error the other outputs may still finish: until when to wait for EOS.
        var finishBy: Double?
        let started = gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE
        let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_QOS.rawValue |
                                  GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_WARNING.rawValue)
        loop: while true {
            let interrupted = firstInterrupt.load(ordering: .relaxed) != 0
            if hardStop.load(ordering: .relaxed) {
                display.interrupt("stopped at once on a second Ctrl-C: the outputs are not finished")
                status = 130
                break
            }
            if let finishBy, broadcast.elapsed >= finishBy { break }
            let timeUp = duration.map { broadcast.elapsed >= $0 } ?? false
            if (interrupted || timeUp) && !endSent {
                gst_element_send_event(pipeline, gst_event_new_eos())
                endSent = true
            }
            // A pipeline that could not start has posted its error already: collect it at once.
            guard let message = gst_bus_timed_pop_filtered(bus, started ? 100_000_000 : 0, mask) else {
                if !started { status = 1; break loop }
                refresh()
                continue
            }
            defer { gst_message_unref(message) }
            let source = message.pointee.src.map { String(cString: rc_object_name($0)) } ?? "?"
            broadcast.update(message, source: source)
            switch message.pointee.type {
            case GST_MESSAGE_EOS:
                if finishBy != nil { display.interrupt("the other outputs finished") }
                break loop
            case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
                let isError = message.pointee.type == GST_MESSAGE_ERROR
                var gerror: UnsafeMutablePointer<GError>?
                var debug: UnsafeMutablePointer<gchar>?
                if isError { gst_message_parse_error(message, &gerror, &debug) } else { gst_message_parse_warning(message, &gerror, &debug) }
                var text = gerror.map { String(cString: $0.pointee.message) } ?? ""
                if let location = Self.location(of: message.pointee.src), !text.contains(location) { text += " (\(location))" }
                display.interrupt("\(isError ? "ERROR" : "WARNING") from \(source): \(text)")
                if let debug, !quiet { display.interrupt("  \(String(cString: debug))") }
                g_clear_error(&gerror)
                g_free(debug)
                guard isError else { break }
                status = 1
                // rtmpreconnectsink keeps taking data after its error, so the rest of the
                // broadcast (HLS, recordings) can still end properly.
                guard PipelineEnding.outputsCanFinish(after: message.pointee.src), finishBy == nil else { break loop }
                if !endSent { gst_element_send_event(pipeline, gst_event_new_eos()) }
                endSent = true
                finishBy = broadcast.elapsed + PipelineEnding.finishTimeout
            default:
                refresh()
            }
        }
        PipelineEnding.stop(pipeline)
        for unreached in broadcast.rtmp.compactMap(\.unreached) where status != 130 {
            display.interrupt("ERROR: \(unreached)")
            status = 1
        }
        display.finish(broadcast, probes)
        return status
    }

    /// A server for the folder of the pipeline's (first) HLS playlist.
    private static func previewServer(_ address: String, for pipeline: UnsafeMutablePointer<GstElement>,
                                      title: String) throws -> PreviewServer {
        guard let sink = BinElements.made(by: "hlssink2", in: pipeline).first,
              let playlist = ObjectProperties.string(sink, "playlist-location") else {
            throw Failure(description: "--serve needs an hlssink2 in the pipeline: it serves the HLS output")
        }
        let folder = (playlist as NSString).deletingLastPathComponent
        let page = PreviewPage.html(title: (title as NSString).lastPathComponent, playlist: (playlist as NSString).lastPathComponent)
        return try PreviewServer(address: address, folder: folder.isEmpty ? "." : folder, page: page)
    }

    /// The `location` of the element that posted an error (a file, a folder pattern, a URL),
    /// so the message names what could not be opened even when GStreamer's text does not.
    /// An element without one (giostreamsink writing hlssink2's segments) takes its nearest
    /// container's: the error names the segment pattern then.
    private static func location(of object: UnsafeMutablePointer<GstObject>?) -> String? {
        guard let object else { return nil }
        // srtsink and other URI sinks name their destination `uri`.
        for name in ["location", "uri"] where g_object_class_find_property(rc_object_class(object), name) != nil {
            if let location = ObjectProperties.string(object, name) { return location }
        }
        guard let parent = gst_object_get_parent(object) else { return nil }
        defer { gst_object_unref(parent) }
        return location(of: parent)
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
