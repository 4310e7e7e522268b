// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Testing

/// Inputs dualmixer cannot take are refused by name, pad and reason; properties by range.
@Suite struct DualMixerNegotiationTests {
    @Test(arguments: [("audio/x-raw,format=U8", "format U8"), ("audio/x-raw,format=S16LE,channels=4", "channels 4"),
                      ("audio/x-raw,format=S32LE", "format S32LE")])
    func unsupportedInputsNameTheElementAndThePad(caps: String, reason: String) throws {
        let run = try PipelineRun.run(
            "dualmixer name=m ! fakesink audiotestsrc num-buffers=5 ! m.app "
                + "audiotestsrc num-buffers=5 ! \(caps) ! audioconvert ! \(caps) ! wavenc ! wavparse ! m.mic")
        let error = try #require(run.error)
        #expect(error.source == "m")
        #expect(error.text.contains("dualmixer cannot accept this input on its mic pad: \(reason)"), "\(error.text)")
    }

    @Test func planarInputIsRefused() {
        let harness = Harness(factory: "dualmixer", sinkPad: "app",
                              caps: "audio/x-raw,format=S16LE,layout=non-interleaved,rate=48000,channels=2")
        _ = harness.messages()
        let text = harness.errors.first ?? ""
        #expect(text.contains("dualmixer cannot accept this input on its app pad: layout non-interleaved is not supported"), "\(text)")
    }

    @Test(arguments: [("app", "volume", "10.5"), ("mic", "volume", "-1")])
    func padPropertiesKeepTheirRange(pad: String, property: String, value: String) throws {
        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("dualmixer", nil))
        defer { gst_object_unref(element) }
        let padObject = try #require(gst_element_get_static_pad(element, pad))
        defer { gst_object_unref(padObject) }
        let spec = try #require(g_object_class_find_property(rc_object_class(padObject), property))
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        #expect(gst_value_deserialize(&gvalue, value) != 0)
        #expect(g_param_value_validate(spec, &gvalue) != 0, "out of range")
    }

    @Test func outputBufferDurationHasARange() throws {
        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("dualmixer", nil))
        defer { gst_object_unref(element) }
        let spec = try #require(g_object_class_find_property(rc_object_class(element), "output-buffer-duration"))
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        #expect(gst_value_deserialize(&gvalue, "100") != 0)
        #expect(g_param_value_validate(spec, &gvalue) != 0, "100 ns is below the 1 ms minimum")
    }
}
