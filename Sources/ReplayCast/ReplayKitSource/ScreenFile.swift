// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Glibc
import MediaKernels
import ReplayCastSupport
import ReplayKitModel

/// screen-location: a video file decoded by a pipeline of its own (decodebin, then
/// videoconvertscale) to NV12 at the largest size with its display aspect that fits the screen
/// (the video stream draws the black bars), on that pipeline's threads and a few pictures
/// ahead, so a slow decode delays only the pictures, never the video stream. The file is
/// opened and its first picture decoded when the broadcast starts, so a file GStreamer cannot
/// read fails the start, naming it. A thread of its own watches the pipeline's bus: at the
/// end it seeks back to the start (file-end=loop) or lets the stream finish.
final class ScreenFile: @unchecked Sendable {
    /// Pictures decoded ahead: six of 1242x2688 NV12 are 30 MB.
    static let picturesAhead = 6

    let path: String
    /// The file's duration as its container gives it, if it does.
    let duration: UInt64?
    let frames = ScreenFrames(capacity: picturesAhead)
    private let loops: Bool
    private let pipeline: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>
    private var thread: UnsafeMutablePointer<GThread>?
    private var closed = false
    private let element: UnsafeMutableRawPointer

    init(path: String, width: Int, height: Int, loops: Bool,
         element: UnsafeMutableRawPointer) throws(BroadcastConfiguration.Failure) {
        self.path = path
        self.loops = loops
        self.element = element
        let fail = { (reason: String) in BroadcastConfiguration.Failure(description: "screen-location \(path): \(reason)") }
        guard access(path, R_OK) == 0 else { throw fail("cannot be read: \(String(cString: strerror(errno)))") }
        // Only the video is decoded: expose-all-streams=false leaves the sound undecoded.
        guard let pipeline = gst_parse_launch(
            "filesrc name=file ! decodebin caps=\"video/x-raw(ANY)\" expose-all-streams=false ! videoconvertscale name=scale "
                + "! capsfilter name=fit caps=\"\(Self.caps())\" ! fakesink name=sink sync=false", nil)
        else { throw fail("could not build a decoding pipeline (videoconvertscale needs GStreamer 1.22)") }
        self.pipeline = pipeline
        bus = gst_element_get_bus(pipeline)!
        let file = gst_bin_get_by_name(rc_bin(pipeline), "file")!, sink = gst_bin_get_by_name(rc_bin(pipeline), "sink")!
        ObjectProperties.set(file, "location", string: path)
        gst_object_unref(file)
        g_signal_connect_data(pipeline, "deep-element-added", unsafeBitCast(withoutDirectRendering as ElementAdded, to: GCallback.self),
                              nil, nil, GConnectFlags(rawValue: 0))
        Self.fitPictures(in: pipeline, to: PixelSize(width: width, height: height))
        let pad = gst_element_get_static_pad(sink, "sink")!
        gst_object_unref(sink)
        let frames = frames
        PadProbe.add(to: pad, GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)) { info, data in
            if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
                frames.accept(buffer: data.assumingMemoryBound(to: GstBuffer.self))
            } else {
                frames.accept(event: data.assumingMemoryBound(to: GstEvent.self))
            }
        }
        gst_object_unref(pad)

        gst_element_set_state(pipeline, GST_STATE_PAUSED)
        guard gst_element_get_state(pipeline, nil, nil, 30_000_000_000) == GST_STATE_CHANGE_SUCCESS else {
            let reason = Self.whyNotShown(bus)
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(bus)
            gst_object_unref(pipeline)
            throw fail(reason)
        }
        var nanoseconds: gint64 = -1
        duration = gst_element_query_duration(pipeline, GST_FORMAT_TIME, &nanoseconds) != 0 && nanoseconds > 0
            ? UInt64(nanoseconds) : nil
        thread = g_thread_new("replaykitsrc-screen", { data in
            Unmanaged<ScreenFile>.fromOpaque(data!).takeUnretainedValue().watch()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { close() }

    /// Stops decoding and returns once the watching thread is gone; the pictures still queued
    /// go with `frames`. The element's stop calls it; the last reference's release, if not.
    func close() {
        guard !closed else { return }
        closed = true
        frames.stop()
        if let thread {
            gst_bus_post(bus, gst_message_new_application(nil, gst_structure_new_empty("stop")))
            g_thread_join(thread)
        }
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(bus)
        gst_object_unref(pipeline)
    }

    private func watch() {
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_APPLICATION.rawValue)
        while let message = gst_bus_timed_pop_filtered(bus, GstClockTime.none, types) {
            defer { gst_message_unref(message) }
            switch message.pointee.type {
            case GST_MESSAGE_EOS:
                guard frames.passEnded(loop: loops, length: duration) else { return }
                let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
                if gst_element_seek_simple(pipeline, GST_FORMAT_TIME, flags, 0) == 0 {
                    return stopShowing("could not seek back to its start")
                }
            case GST_MESSAGE_ERROR:
                var error: UnsafeMutablePointer<GError>?
                gst_message_parse_error(message, &error, nil)
                let reason = error.map { String(cString: $0.pointee.message) } ?? "decoding failed"
                g_clear_error(&error)
                return stopShowing(reason)
            default:
                return
            }
        }
    }

    private static func caps(_ size: PixelSize? = nil, colorimetry: String? = nil) -> String {
        "video/x-raw,format=NV12,pixel-aspect-ratio=1/1" + (size.map { ",width=\($0.width),height=\($0.height)" } ?? "")
            + (colorimetry.map { ",colorimetry=\($0)" } ?? "")
    }

    /// Sets the size videoconvertscale scales to when the decoded caps come, before it
    /// negotiates them: the largest with the picture's display aspect inside `screen`, even
    /// on both sides for 4:2:0. The video stream draws the bars: add-borders would paint
    /// them in the file's range, not the screen's.
    private static func fitPictures(in pipeline: UnsafeMutablePointer<GstElement>, to screen: PixelSize) {
        let scale = gst_bin_get_by_name(rc_bin(pipeline), "scale")!, fit = gst_bin_get_by_name(rc_bin(pipeline), "fit")!
        defer { gst_object_unref(scale) }
        let pad = gst_element_get_static_pad(scale, "sink")!
        defer { gst_object_unref(pad) }
        let filter = CapsFilter(fit)
        PadProbe.add(to: pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) { _, data in
            let event = data.assumingMemoryBound(to: GstEvent.self)
            guard event.pointee.type == GST_EVENT_CAPS else { return }
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            var info = GstVideoInfo()
            guard let caps, gst_video_info_from_caps(&info, caps) != 0, info.width > 0, info.height > 0 else { return }
            let display = PixelSize(width: Int(info.width) * Int(max(info.par_n, 1)), height: Int(info.height) * Int(max(info.par_d, 1)))
            // Colours the kernels know keep their colorimetry, converted by ScreenFrames; others
            // GStreamer brings to BT.709, which it converts correctly as the matrix changes.
            let known = ColorSpace(info.colorimetry) != nil
            filter.set(Self.caps(PixelRect.aspectFit(display, in: screen, alignment: 2).size, colorimetry: known ? nil : "bt709"))
        }
    }

    /// The capsfilter, kept by the probe that sets it (the pipeline holds it too).
    private final class CapsFilter: @unchecked Sendable {
        private let element: UnsafeMutablePointer<GstElement>

        init(_ element: UnsafeMutablePointer<GstElement>) { self.element = element }

        deinit { gst_object_unref(element) }

        func set(_ text: String) {
            ObjectProperties.set(element, "caps", caps: text)
        }
    }

    /// The file cannot go on: a warning, and the screen keeps its last picture.
    private func stopShowing(_ reason: String) {
        let text = "replaykitsrc: screen-location \(path): \(reason); the screen keeps its last picture"
        DebugLog.replaykitsrc.warning(element, text)
        rc_element_warning_stream_format(element, text, nil)
        frames.end()
    }

    /// Why the first picture did not come, from the decoding pipeline's error. decodebin
    /// reports a stream it has no decoder for, the sound too when only sound was found,
    /// as "Missing decoder: NAME (CAPS)" in the error's debug text. A bin fails its state
    /// change before it forwards the child's error to the bus (gst_bin_handle_message_func,
    /// gst/gstbin.c), so the error may come just after the failure: it is waited for.
    private static func whyNotShown(_ bus: UnsafeMutablePointer<GstBus>) -> String {
        guard let message = gst_bus_timed_pop_filtered(bus, 2_000_000_000, GST_MESSAGE_ERROR) else {
            return "holds no video GStreamer can decode"
        }
        defer { gst_message_unref(message) }
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        defer {
            g_clear_error(&error)
            g_free(debug)
        }
        let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        let details = debug.map { String(cString: $0) } ?? ""
        guard let missing = details.firstRange(of: "Missing decoder: ") else { return "holds no video GStreamer can decode (\(text))" }
        let rest = details[missing.upperBound...]
        let decoder = String(rest.prefix { $0 != "(" }.reversed().drop { $0 == " " }.reversed())
        if rest.contains("(audio/") { return "holds no video, only sound (\(decoder))" }
        return "holds video this GStreamer has no decoder for: \(decoder) (gst-inspect-1.0 lists the decoders installed)"
    }
}

private typealias ElementAdded = @convention(c) (UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstBin>?,
                                                 UnsafeMutablePointer<GstElement>?, gpointer?) -> Void

/// decodebin's libav decoders copy their pictures out instead of decoding into buffers of the
/// pipeline's. On GStreamer 1.26 (Debian trixie's 1.26.2), avdec_h264 decoding straight into
/// them (direct-rendering) hands a 296-wide picture to videoconvertscale in a buffer whose
/// video meta says 304 wide, and gst_video_frame_map aborts the process ("video meta uses
/// 304x640 instead of 296x640"): 23 of 40 plain gst-launch-1.0 runs of
/// `qtdemux ! h264parse ! avdec_h264 ! videoconvertscale` on examples/screen/screen-recording.mov,
/// none of 40 with direct-rendering=false; none of 30 on 1.22 or 1.28.
private let withoutDirectRendering: ElementAdded = { _, _, element, _ in
    guard let element, let factory = gst_element_get_factory(element) else { return }
    let name = String(cString: rc_object_name(UnsafeMutableRawPointer(factory)))
    guard name.hasPrefix("avdec_"), g_object_class_find_property(rc_object_class(element), "direct-rendering") != nil
    else { return }
    ObjectProperties.set(element, "direct-rendering", bool: false)
}
