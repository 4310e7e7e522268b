// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
@testable import ReplayCast
import Testing

/// Caps: the output follows the main input unless downstream decides; bad input is refused
/// with a reason naming pipcompositor; properties keep compositor's names and refuse
/// out-of-range values.
@Suite struct PipCompositorNegotiationTests {
    static func outputCaps(_ description: String) throws -> (caps: String, plans: PlanCounts) {
        let recorder = PadRecorder()
        var plans = PlanCounts()
        let run = try PipelineRun.run(description, prepare: { pipeline in
            recorder.attach(to: pipeline, element: "pip", pad: "src")
            watchPlans(pipeline, "pip")
        },
                                      finished: { plans = planCounts($0, "pip") })
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.reachedEOS)
        return (try #require(recorder.caps.last), plans)
    }

    @Test func nv12InGivesNV12OutWithTheMainInputsColours() throws {
        let result = try Self.outputCaps(
            "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=320,height=240,colorimetry=1:3:5:1 "
            + "! pipcompositor name=pip ! fakesink "
            + "videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,height=48,colorimetry=bt601 ! pip.")
        #expect(result.caps.contains("format=(string)NV12"))
        #expect(result.caps.contains("width=(int)320") && result.caps.contains("height=(int)240"))
        #expect(result.caps.contains("colorimetry=(string)1:3:5:1"), "\(result.caps)")
        #expect(result.plans.taken == 2, "nothing but the PiP converted: \(result.plans)")
    }

    @Test func mainInputDecidesTheFormatWhateverThePiPs() throws {
        let result = try Self.outputCaps(
            "videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=160,height=120 ! pipcompositor name=pip ! fakesink "
            + "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=320,height=240 ! pip.")
        #expect(result.caps.contains("format=(string)RGBA") && result.caps.contains("width=(int)160"), "\(result.caps)")
    }

    @Test func downstreamCapsDecideSizeAndFormat() throws {
        let result = try Self.outputCaps(
            "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=320,height=240 ! pipcompositor name=pip "
            + "! video/x-raw,format=I420,width=640,height=360 ! fakesink "
            + "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=64,height=48 ! pip.")
        #expect(result.caps.contains("format=(string)I420") && result.caps.contains("width=(int)640")
                && result.caps.contains("height=(int)360"), "\(result.caps)")
        #expect(result.plans.compose == 2)
    }

    /// replaykitsrc's variable rate (0/1, max 30/1) gives a 30 fps output.
    @Test func variableRateMainGivesItsMaximumRate() throws {
        let result = try Self.outputCaps("replaykitsrc is-live=false width=128 height=256 num-frames=2 name=rk "
                                         + "rk.video ! pipcompositor name=pip ! fakesink")
        #expect(result.caps.contains("framerate=(fraction)30/1"), "\(result.caps)")
    }

    /// An input whose format is only known when it flows (a decoder, whose pad template
    /// offers everything) is linked without checking and then negotiates YUY2: the error
    /// comes from pipcompositor and says why. (With a fixed format upstream, gst-launch
    /// already refuses the link by the pad template.)
    @Test(arguments: ["sink_0", "sink_1"])
    func unsupportedFormatFailsNamingPipcompositor(pad: String) throws {
        let main = pad == "sink_0" ? "YUY2" : "NV12", pip = pad == "sink_0" ? "NV12" : "YUY2"
        let run = try PipelineRun.run(
            "videotestsrc num-buffers=2 ! capsfilter name=main caps=video/x-raw,format=\(main),width=64,height=48 "
            + "videotestsrc num-buffers=2 ! capsfilter name=picture caps=video/x-raw,format=\(pip),width=32,height=24 "
            + "pipcompositor name=pip ! fakesink", prepare: { pipeline in
                let pip = gst_bin_get_by_name(rc_bin(pipeline), "pip")!
                for name in ["main", "picture"] {
                    let filter = gst_bin_get_by_name(rc_bin(pipeline), name)!
                    let source = gst_element_get_static_pad(filter, "src")!
                    let sink = gst_element_request_pad_simple(pip, "sink_%u")!
                    #expect(gst_pad_link_full(source, sink, GST_PAD_LINK_CHECK_NOTHING) == GST_PAD_LINK_OK)
                    gst_object_unref(sink)
                    gst_object_unref(source)
                    gst_object_unref(filter)
                }
                gst_object_unref(pip)
            })
        let error = try #require(run.error)
        #expect(error.source == "pip")
        #expect(error.text.contains("pipcompositor cannot accept this input on its \(pad) pad: format YUY2 is not supported"), "\(error.text)")
        print("unsupported input on \(pad): \(error.text)")
    }

    static func padClass() -> (UnsafeMutablePointer<GObjectClass>, () -> Void) {
        GStreamerSetup.ensure()
        let klass = g_type_class_ref(rc_pipcompositor_pad_get_type())!.assumingMemoryBound(to: GObjectClass.self)
        return (klass, { g_type_class_unref(klass) })
    }

    static func rejects(_ klass: UnsafeMutablePointer<GObjectClass>, _ name: String, _ set: (UnsafeMutablePointer<GValue>) -> Void) -> Bool {
        let spec = g_object_class_find_property(klass, name)!
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        set(&value)
        return g_param_value_validate(spec, &value) != 0 // TRUE: the value had to be changed
    }

    @Test func outOfRangeAndNegativeSizesAreRejectedByTheParamSpecs() throws {
        let (pad, release) = Self.padClass()
        defer { release() }
        #expect(Self.rejects(pad, "width") { g_value_set_int($0, -2) })
        #expect(Self.rejects(pad, "height") { g_value_set_int($0, -100) })
        #expect(!Self.rejects(pad, "width") { g_value_set_int($0, -1) }, "-1 keeps compositor's meaning")
        #expect(!Self.rejects(pad, "width") { g_value_set_int($0, 0) })
        #expect(Self.rejects(pad, "alpha") { g_value_set_double($0, 1.01) })
        #expect(Self.rejects(pad, "alpha") { g_value_set_double($0, -0.1) })
        #expect(Self.rejects(pad, "scale") { g_value_set_double($0, -0.5) })
        #expect(Self.rejects(pad, "scale") { g_value_set_double($0, 1.5) })
        for name in ["margin", "border-width", "corner-radius"] {
            #expect(Self.rejects(pad, name) { g_value_set_uint($0, 40000) }, "\(name)")
        }
        #expect(Self.rejects(pad, "position") { g_value_set_enum($0, 9) })
        #expect(Self.rejects(pad, "sizing-policy") { g_value_set_enum($0, 2) })
        let element = g_type_class_ref(rc_pipcompositor_get_type())!.assumingMemoryBound(to: GObjectClass.self)
        defer { g_type_class_unref(element) }
        #expect(Self.rejects(element, "background") { g_value_set_enum($0, 5) })

        // Through a launch line: the value is refused and the pad keeps its default.
        var plans = PlanCounts()
        var width: gint = 0
        let run = try PipelineRun.run(
            "videotestsrc num-buffers=1 ! video/x-raw,format=NV12,width=64,height=48 ! pipcompositor name=pip ! fakesink",
            prepare: { pipeline in
                watchPlans(pipeline, "pip")
                let warnings = ExpectedWarnings.counting("out of range for property 'width'") {
                    setPadProperty(pipeline, element: "pip", pad: "sink_0", "width", "-5")
                }
                #expect(warnings == 1, "GObject says why the value was refused")
                let pip = gst_bin_get_by_name(rc_bin(pipeline), "pip")!
                let sink = gst_element_get_static_pad(pip, "sink_0")!
                var value = GValue()
                g_value_init(&value, rc_type_int())
                g_object_get_property(rc_gobject(sink), "width", &value)
                width = g_value_get_int(&value)
                gst_object_unref(sink)
                gst_object_unref(pip)
            }, finished: { plans = planCounts($0, "pip") })
        #expect(run.error == nil && width == -1)
        #expect(plans.taken == 1)
    }

    /// Names, types and defaults shared with compositor, read from both pad classes.
    @Test func padPropertiesMatchCompositorsWhereTheyOverlap() throws {
        GStreamerSetup.ensure()
        let compositor = try #require(gst_element_factory_make("compositor", nil))
        defer { gst_object_unref(compositor) }
        let theirPad = try #require(gst_element_request_pad_simple(compositor, "sink_%u"))
        defer { gst_element_release_request_pad(compositor, theirPad); gst_object_unref(theirPad) }
        let (ours, release) = Self.padClass()
        defer { release() }
        let theirs = rc_object_class(theirPad)
        for name in ["xpos", "ypos", "width", "height", "alpha", "sizing-policy", "zorder"] {
            let a = try #require(g_object_class_find_property(ours, name)), b = try #require(g_object_class_find_property(theirs, name))
            #expect(String(cString: g_param_spec_get_blurb(a)).hasPrefix(String(cString: g_param_spec_get_blurb(b))), "\(name)")
            #expect(g_type_fundamental(a.pointee.value_type) == g_type_fundamental(b.pointee.value_type), "\(name)")
            var da = GValue(), db = GValue()
            g_value_init(&da, a.pointee.value_type)
            g_value_init(&db, b.pointee.value_type)
            g_param_value_set_default(a, &da)
            g_param_value_set_default(b, &db)
            let ta = gst_value_serialize(&da), tb = gst_value_serialize(&db)
            #expect(String(cString: ta!) == String(cString: tb!), "\(name) default")
            g_free(ta); g_free(tb)
            g_value_unset(&da); g_value_unset(&db)
        }
        // The background values are compositor's, plus color.
        let element = g_type_class_ref(rc_pipcompositor_get_type())!.assumingMemoryBound(to: GObjectClass.self)
        defer { g_type_class_unref(element) }
        let mine = g_object_class_find_property(element, "background")!
        let theirsBackground = g_object_class_find_property(rc_object_class(compositor), "background")!
        let mineEnum = g_type_class_ref(mine.pointee.value_type)!.assumingMemoryBound(to: GEnumClass.self)
        let theirEnum = g_type_class_ref(theirsBackground.pointee.value_type)!.assumingMemoryBound(to: GEnumClass.self)
        defer { g_type_class_unref(mineEnum); g_type_class_unref(theirEnum) }
        #expect(mineEnum.pointee.n_values == theirEnum.pointee.n_values + 1, "compositor's values and color")
        for index in 0..<Int(theirEnum.pointee.n_values) {
            let a = mineEnum.pointee.values[index], b = theirEnum.pointee.values[index]
            #expect(a.value == b.value && String(cString: a.value_nick) == String(cString: b.value_nick))
        }
        #expect(String(cString: mineEnum.pointee.values[4].value_nick) == "color")
    }
}
