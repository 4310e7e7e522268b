// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CTestSupport
import Testing

extension FlushingSeekTests {
    /// A capture cannot go back: the seek is refused (FALSE) and the broadcast plays on,
    /// every frame and sample as in a run without the seek.
    @Test func replaykitsrcRefusesTheSeekAndPlaysOn() throws {
        let description = "replaykitsrc name=rk is-live=false duration=400000000 "
            + "rk.video ! fakesink sync=true name=video rk.audio_app ! fakesink sync=true name=app rk.audio_mic ! fakesink sync=true name=mic"
        let seeked = try Self.seek(description, observed: ["video", "app", "mic"])
        #expect(seeked.accepted == false, "the seek is refused")
        #expect(seeked.run.error == nil && seeked.run.reachedEOS)
        #expect(seeked.after.values.allSatisfy { $0.isEmpty }, "no new segment")
        let plain = try Self.seek(description, observed: ["video", "app", "mic"], seeking: false)
        #expect(plain.all["video"]!.count > 0)
        #expect(seeked.all == plain.all, "the same buffers as without the seek")
    }
}

extension HostileInputTests {
    /// Each numeric, boolean and enum property of replaykitsrc at the minimum and maximum of
    /// its param spec when the broadcast starts (one at a time; the run bounded both by
    /// duration and frame count, so that one of them at its edge still ends): the broadcast
    /// runs to its end, or fails at once with an error naming replaykitsrc.
    @Test func replaykitsrcStartsWithEveryPropertyAtItsEdges() throws {
        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("replaykitsrc", nil))
        defer { gst_object_unref(element) }
        var count: guint = 0
        let list = try #require(rc_writable_properties(element, &count))
        defer { g_free(list) }
        var runs = 0, ended = 0
        for index in 0..<Int(count) {
            let spec = list[index]!
            let name = String(cString: spec.pointee.name)
            for pick in [guint(0), 1] {
                var value = GValue()
                guard rc_property_pick(spec, pick, 0, &value) != 0 else { continue }
                let serialized = gst_value_serialize(&value)
                let text = serialized.map { String(cString: $0) } ?? ""
                g_free(serialized)
                g_value_unset(&value)
                let run = try PipelineRun.run(
                    "replaykitsrc name=rk is-live=false duration=200000000 num-frames=6 \(name)=\(text) "
                        + "rk.video ! fakesink rk.audio_app ! fakesink rk.audio_mic ! fakesink", timeout: 20)
                runs += 1
                if run.reachedEOS { ended += 1 }
                #expect(run.reachedEOS || run.error?.source == "rk", "\(name)=\(text): \(String(describing: run.error))")
                #expect(!run.timedOut, "\(name)=\(text) ran past 20 s")
            }
        }
        #expect(runs == 38, "19 properties with a range, at both ends: \(runs)")
        print("replaykitsrc edges: \(runs) starts, \(ended) ran to the end, \(runs - ended) refused by name")
    }
}

extension PropertyThrashTests {
    /// replaykitsrc's settings apply from the next start, so a broadcast written into while
    /// it runs is the broadcast it started as.
    @Test func replaykitsrcRunsTheBroadcastItStarted() throws {
        // A width whose rows need no padding, so the bytes compared are all picture.
        let description = "replaykitsrc name=el is-live=false duration=2000000000 width=320 height=640 "
            + "el.video ! fakesink sync=true name=out el.audio_app ! fakesink el.audio_mic ! fakesink"
        let strings = ["activity": ["animated", "static", "busy:200ms,idle:300ms"],
                       "schedule": ["", "500ms:pause; 700ms:resume", "300ms:orientation=right; 600ms:call-start"],
                       "setup-info": ["", "setup,broadcastName=thrash"],
                       // Files are read at the next start only: none is opened while playing.
                       "trace": ["", "/nonexistent/thrash.trace"], "app-location": ["", "/nonexistent/app.m4a"],
                       "mic-location": ["", "/nonexistent/mic.wav"], "screen-location": ["", "/nonexistent/screen.mov"]]
        let alone = try Self.play(description)
        let thrashed = try Self.play(description, targets: ["el"], strings: strings)
        Self.expectThrashedWhilePlaying(thrashed, "replaykitsrc", properties: 26)
        #expect(alone.out.buffers.count == 60)
        let differ = zip(thrashed.out.buffers, alone.out.buffers).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(thrashed.out.buffers == alone.out.buffers,
                "the same frames at the same times: \(thrashed.out.buffers.count) vs \(alone.out.buffers.count), first differing \(String(describing: differ))")
        print("replaykitsrc thrash: \(thrashed.written)")
    }
}
