// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

/// The broadcast lifecycle: pause and resume, finish, mic states, format switches, tags,
/// messages, bad settings.
@Suite struct ReplayKitLifecycleTests {
    static let second: UInt64 = 1_000_000_000

    @Test func pauseLeavesAGapAndResumesWithADiscontinuity() throws {
        let recorded = try RecordedBroadcast.record("schedule=\"1s:pause; 4s:resume; 5s:finish\"")
        #expect(recorded.run.reachedEOS)
        for recorder in [recorded.video, recorded.app, recorded.mic] {
            let buffers = recorder.buffers
            let before = try #require(buffers.last { $0.pts < Self.second })
            let after = try #require(buffers.first { $0.pts >= Self.second })
            #expect(!buffers.contains { $0.pts >= Self.second && $0.pts < 4 * Self.second }, "no buffers while paused")
            #expect(after.pts - before.pts >= 3 * Self.second, "resumed timestamps reflect the elapsed time")
            #expect(after.discont, "the first buffer after the pause is DISCONT")
            let gaps = recorder.gaps.filter { $0.pts >= Self.second && $0.pts < 4 * Self.second }
            let covered = gaps.map(\.duration).reduce(0, +)
            #expect(covered >= 3 * Self.second - 50_000_000, "GAP events cover the pause (\(covered) ns)")
            #expect(recorder.sawEOS, "finish ends every pad")
        }
        let names = recorded.run.elementMessages.map(\.fields.name)
        #expect(names.filter { $0.hasPrefix("replaykit-broadcast") } ==
                ["replaykit-broadcast-started", "replaykit-broadcast-paused", "replaykit-broadcast-resumed",
                 "replaykit-broadcast-finished"])
    }

    @Test func micOffSendsNoMicBuffersAndStillEnds() throws {
        let recorded = try RecordedBroadcast.record("mic=off duration=2000000000")
        #expect(recorded.run.reachedEOS)
        #expect(recorded.mic.buffers.isEmpty)
        #expect(recorded.mic.gaps.map(\.duration).reduce(0, +) >= 2 * Self.second - 30_000_000)
        #expect(!recorded.app.buffers.isEmpty)
    }

    @Test func micSilenceSendsZeros() throws {
        let recorder = PadRecorder { bytes in bytes.allSatisfy { $0 == 0 } ? "zeros" : "sound" }
        let run = try PipelineRun.run("replaykitsrc name=rk is-live=false mic=silence duration=500000000 rk.audio_mic ! fakesink",
                                      prepare: { recorder.attach(to: $0, element: "rk", pad: "audio_mic") })
        #expect(run.reachedEOS)
        #expect(recorder.buffers.map { $0.size / 2 }.reduce(0, +) == 24000, "0.5 s at 48 kHz mono")
        #expect(!recorder.buffers.isEmpty && recorder.buffers.allSatisfy { $0.note == "zeros" })
    }

    @Test func micFormatSwitchRenegotiatesAndKeepsFlowing() throws {
        let recorded = try RecordedBroadcast.record("schedule=\"1s:mic-format=24000; 2s:finish\"", pads: ["audio_mic"])
        #expect(recorded.run.reachedEOS)
        let rates = recorded.mic.caps.compactMap { caps in caps.split(separator: ",").first { $0.contains("rate=") } }
        #expect(rates.map { $0.trimmingCharacters(in: .whitespaces) } == ["rate=(int)48000", "rate=(int)24000"])
        let buffers = recorded.mic.buffers
        let switchIndex = try #require(buffers.firstIndex { $0.pts >= Self.second })
        #expect(buffers[switchIndex].discont)
        let samples48 = buffers[..<switchIndex].map { $0.size / 2 }.reduce(0, +)
        let samples24 = buffers[switchIndex...].map { $0.size / 2 }.reduce(0, +)
        #expect(abs(samples48 - 48000) <= 1024, "about a second at 48 kHz before the switch")
        #expect(abs(samples24 - 24000) <= 1024, "about a second at 24 kHz after it")
        // The switch lands on the first callback at or after 1 s; from there the 24 kHz clock
        // runs to the finish at 2 s, so no time is lost or doubled.
        let switchTime = Double(buffers[switchIndex].pts) / 1e9
        #expect(samples48 == Int((switchTime * 48000).rounded()))
        #expect(samples24 == Int(((2 - switchTime) * 24000).rounded()))
    }

    @Test func setupInfoArrivesInTheStartedMessage() throws {
        let recorded = try RecordedBroadcast.record("setup-info=\"setup,broadcastName=example,quality=(int)2\" duration=100000000")
        let started = try #require(recorded.run.elementMessages.first { $0.fields.name == "replaykit-broadcast-started" })
        let info = try #require(started.fields["setup-info"])
        #expect(info == .other("\"setup\\,\\ broadcastName\\=\\(string\\)example\\,\\ quality\\=\\(int\\)2\\;\""))
        #expect(started.fields["device"] == .string("iphone-11-ios17"))
    }

    @Test func orientationChangeIsTagged() throws {
        let recorded = try RecordedBroadcast.record("schedule=\"500ms:orientation=right; 1s:orientation=up; 1500ms:finish\"",
                                                    pads: ["video"])
        let tags = recorded.video.tags
        #expect(tags.count == 2)
        #expect(tags.first?.contains("image-orientation=(string)rotate-90") == true)
        #expect(tags.last?.contains("image-orientation=(string)rotate-0") == true)
    }

    @Test(arguments: [
        ("schedule", "1s:pause; 2s:resme", "schedule item 2"),
        ("schedule", "3s:pause; 1s:resume", "schedule item 2"),
        ("setup-info", "setup,broadcastName=", "setup-info"),
        ("activity", "busy:2x", "activity"),
    ])
    func badStringsAreRefusedWhenSet(property: String, value: String, mentions: String) throws {
        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("replaykitsrc", nil))
        defer {
            gst_element_set_state(element, GST_STATE_NULL)
            gst_object_unref(element)
        }
        let before = stringProperty(element, property)
        let warnings = ExpectedWarnings.counting(mentions) {
            gst_util_set_object_arg(rc_gobject(element), property, value)
        }
        #expect(warnings == 1, "the refusal is said in one warning")
        #expect(stringProperty(element, property) == before, "the property keeps its last good value")
        let bus = gst_bus_new()!
        defer { gst_object_unref(bus) }
        gst_element_set_bus(element, bus)
        #expect(gst_element_set_state(element, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE)
        let message = try #require(gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR))
        defer { gst_message_unref(message) }
        var error: UnsafeMutablePointer<GError>?
        gst_message_parse_error(message, &error, nil)
        let text = error.map { String(cString: $0.pointee.message) } ?? ""
        g_clear_error(&error)
        #expect(text.contains(mentions), "\(text)")
    }

    func stringProperty(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> String {
        var value = GValue()
        g_value_init(&value, rc_type_string())
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(element), name, &value)
        return g_value_get_string(&value).map { String(cString: $0) } ?? ""
    }

    @Test func unlinkedPadsDoNotStopTheOthers() throws {
        let recorded = try RecordedBroadcast.record("duration=1000000000", pads: ["audio_mic"])
        #expect(recorded.run.error == nil)
        #expect(recorded.run.reachedEOS)
        #expect(recorded.mic.buffers.map { $0.size / 2 }.reduce(0, +) == 48000)
    }

    @Test func playsAgainAfterGoingBackToNull() throws {
        GStreamerSetup.ensure()
        let pipeline = try #require(gst_parse_launch("replaykitsrc is-live=false duration=300000000 name=rk rk.video ! fakesink "
                                                     + "rk.audio_app ! fakesink rk.audio_mic ! fakesink", nil))
        defer { gst_object_unref(pipeline) }
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        for _ in 0..<3 {
            gst_element_set_state(pipeline, GST_STATE_PLAYING)
            let mask = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
            let message = try #require(gst_bus_timed_pop_filtered(bus, 10_000_000_000, mask))
            #expect(message.pointee.type == GST_MESSAGE_EOS)
            gst_message_unref(message)
            gst_element_set_state(pipeline, GST_STATE_NULL)
        }
    }
}
