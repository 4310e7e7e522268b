// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import Foundation

/// A GstHarness around one element, with a bus so its element messages can be read.
final class Harness {
    let harness: UnsafeMutablePointer<GstHarness>
    let bus: UnsafeMutablePointer<GstBus>

    init(_ description: String, caps: String) {
        GStreamerSetup.ensure()
        harness = gst_harness_new_parse(description)
        bus = gst_bus_new()
        gst_element_set_bus(harness.pointee.element, bus)
        gst_harness_set_src_caps_str(harness, caps)
    }

    /// A harness on one named sink pad (and src pad, none for a sink) of an element with several.
    init(factory: String, sinkPad: String, srcPad: String? = "src", caps: String) {
        GStreamerSetup.ensure()
        harness = gst_harness_new_with_padnames(factory, sinkPad, srcPad)
        bus = gst_bus_new()
        gst_element_set_bus(harness.pointee.element, bus)
        gst_harness_set_src_caps_str(harness, caps)
    }

    /// A harness on the sink pad `sinkPad` of a sink configured before the harness starts it
    /// (as a sink whose start needs its properties set, the harness playing it at once).
    init(sink element: UnsafeMutablePointer<GstElement>, sinkPad: String, caps: String) {
        GStreamerSetup.ensure()
        harness = gst_harness_new_empty()
        bus = gst_bus_new()
        gst_element_set_bus(element, bus)
        gst_harness_add_element_full(harness, element, Self.anySource, sinkPad, nil, nil)
        gst_harness_set_src_caps_str(harness, caps)
    }

    /// The harness's own source pad for `init(sink:)`: what gst_harness_new gives, ANY caps.
    /// Built once, never freed, like a C static template.
    nonisolated(unsafe) private static let anySource: UnsafeMutablePointer<GstStaticPadTemplate> = {
        let template = UnsafeMutablePointer<GstStaticPadTemplate>.allocate(capacity: 1)
        template.initialize(to: GstStaticPadTemplate())
        template.pointee.name_template = UnsafePointer(strdup("src"))
        template.pointee.direction = GST_PAD_SRC
        template.pointee.presence = GST_PAD_ALWAYS
        template.pointee.static_caps.string = UnsafePointer(strdup("ANY"))
        return template
    }()

    deinit {
        // Messages left on the bus hold the element, which holds the bus: flushing breaks
        // the cycle so both are freed.
        gst_bus_set_flushing(bus, 1)
        gst_harness_teardown(harness)
        gst_object_unref(bus)
    }

    var element: UnsafeMutablePointer<GstElement> { harness.pointee.element }

    @discardableResult
    func push(_ bytes: [UInt8], pts: UInt64, duration: UInt64 = UInt64.max, flags: GstBufferFlags? = nil) -> GstFlowReturn {
        let buffer = makeBuffer(bytes, pts: pts, duration: duration)
        if let flags { buffer.pointee.mini_object.flags |= flags.rawValue }
        return gst_harness_push(harness, buffer)
    }

    func makeBuffer(_ bytes: [UInt8], pts: UInt64, duration: UInt64 = UInt64.max) -> UnsafeMutablePointer<GstBuffer> {
        let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)!
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(bytes.count)) }
        buffer.pointee.pts = GstClockTime(pts)
        buffer.pointee.duration = GstClockTime(duration)
        return buffer
    }

    func pushEOS() {
        _ = gst_harness_push_event(harness, gst_event_new_eos())
    }

    /// Hands `body` each buffer that comes out until the element's EOS: an aggregator makes
    /// its output on its own thread, so what has come out when EOS was pushed is not all.
    func pullUntilEOS(_ body: (UnsafeMutablePointer<GstBuffer>) -> Void) {
        var output: UnsafeMutablePointer<GstBuffer>?
        while gst_harness_pull_until_eos(harness, &output) != 0, let buffer = output {
            body(buffer)
            gst_buffer_unref(buffer)
            output = nil
        }
    }

    /// Drops the buffers that came out, so memory stays flat in long pushes.
    func discardOutput() {
        while let buffer = gst_harness_try_pull(harness) { gst_buffer_unref(buffer) }
    }

    /// Waits (at most `timeout` seconds) until a sink has posted its EOS or an error.
    func waitForSinkEOS(timeout: Double = 5) {
        let deadline = Date().addingTimeInterval(timeout)
        while endsOfStream == 0 && errors.isEmpty && Date() < deadline {
            _ = messages()
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Texts of the error messages posted so far.
    private(set) var errors: [String] = []
    /// EOS messages posted so far (a sink's).
    private(set) var endsOfStream = 0

    /// Element messages posted so far, oldest first; error texts are kept in `errors`.
    func messages() -> [Fields] {
        var out: [Fields] = []
        while let message = gst_bus_pop(bus) {
            defer { gst_message_unref(message) }
            if message.pointee.type == GST_MESSAGE_ERROR {
                var gerror: UnsafeMutablePointer<GError>?
                gst_message_parse_error(message, &gerror, nil)
                errors.append(gerror.map { String(cString: $0.pointee.message) } ?? "")
                g_clear_error(&gerror)
            } else if message.pointee.type == GST_MESSAGE_EOS {
                endsOfStream += 1
            } else if message.pointee.type == GST_MESSAGE_ELEMENT, let s = gst_message_get_structure(message) {
                out.append(Fields(s))
            }
        }
        return out
    }
}
