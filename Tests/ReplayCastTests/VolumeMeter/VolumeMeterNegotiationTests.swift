// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CGstCheck
import Testing

/// Bad input gets a clear error naming the element; good input passes untouched.
@Suite struct VolumeMeterNegotiationTests {
    @Test(arguments: [
        ("audio/x-raw,format=U8", "format U8"),
        ("audio/x-raw,format=S24LE", "format S24LE"),
    ])
    func unsupportedCapsNameTheElementAndTheReason(caps: String, reason: String) throws {
        // wavparse exposes its pad only at run time, so the caps meet volumemeter in negotiation.
        let run = try PipelineRun.run("audiotestsrc num-buffers=5 ! \(caps) ! audioconvert ! \(caps) ! wavenc ! wavparse ! volumemeter name=meter ! fakesink")
        let error = try #require(run.error)
        #expect(error.source == "meter")
        #expect(error.text.contains("volumemeter cannot accept this input"))
        #expect(error.text.contains(reason), "\(error.text)")
    }

    @Test func planarInputIsRefusedByName() {
        let harness = Harness("volumemeter name=meter", caps: "audio/x-raw,format=S16LE,layout=non-interleaved,rate=48000,channels=2")
        _ = harness.messages()
        let text = harness.errors.first ?? ""
        #expect(text.contains("volumemeter cannot accept this input: layout non-interleaved is not supported"), "\(text)")
        let flow = harness.push([UInt8](repeating: 0, count: 64), pts: 0)
        #expect(flow == GST_FLOW_NOT_NEGOTIATED)
    }

    /// Linked directly, the parser already refuses, naming the element and the caps.
    @Test func parserRefusesAFilterTheElementCannotTake() {
        #expect {
            _ = try PipelineRun.run("audiotestsrc num-buffers=5 ! audio/x-raw,format=U8 ! volumemeter name=meter ! fakesink")
        } throws: { error in
            "\(error)".contains("meter can't handle caps audio/x-raw, format=(string)U8")
        }
    }

    @Test func convertersUpstreamStillNegotiateASupportedFormat() throws {
        let run = try PipelineRun.run(
            "audiotestsrc num-buffers=5 ! audio/x-raw,format=U8 ! audioconvert ! volumemeter name=meter ! fakesink")
        #expect(run.error == nil)
        // 5 buffers of 1024 frames at 44.1 kHz: one full 100 ms interval and the 16 ms rest.
        #expect(run.messages(from: "meter", named: "volumemeter").compactMap { $0.uint64("duration") } == [100_000_000, 16_099_773])
    }

    @Test(arguments: [("interval", "0"), ("peak-falloff", "-1")])
    func outOfRangePropertiesAreRejected(property: String, value: String) throws {
        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("volumemeter", nil))
        defer { gst_object_unref(element) }
        let pspec = try #require(g_object_class_find_property(rc_object_class(element), property))
        var gvalue = GValue()
        g_value_init(&gvalue, pspec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        #expect(gst_value_deserialize(&gvalue, value) != 0)
        // g_param_value_validate returns TRUE when the value had to be changed: out of range.
        #expect(g_param_value_validate(pspec, &gvalue) != 0)
    }

    @Test func buffersPassThroughWithoutACopy() throws {
        let harness = Harness("volumemeter", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2")
        let bytes = Signals.encode(Signals.sine(frequency: 440, amplitude: 0.5, rate: 48000, frames: 480, channels: 2), as: .s16le)
        let buffer = harness.makeBuffer(bytes, pts: 0)
        gst_buffer_ref(buffer)
        #expect(gst_harness_push(harness.harness, buffer) == GST_FLOW_OK)
        let out = try #require(gst_harness_pull(harness.harness))
        #expect(out == buffer)
        var readBack = [UInt8](repeating: 0, count: bytes.count)
        _ = readBack.withUnsafeMutableBytes { gst_buffer_extract(out, 0, $0.baseAddress, gsize(bytes.count)) }
        #expect(readBack == bytes)
        gst_buffer_unref(out)
        gst_buffer_unref(buffer)
    }
}
