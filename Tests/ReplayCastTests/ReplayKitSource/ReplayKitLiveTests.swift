// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit
import Foundation
import ReplayCast
import ReplayCastSupport
import Testing

/// replaykitsrc in real time on the pipeline clock.
@Suite(.serialized) struct ReplayKitLiveTests {
    static let second: UInt64 = 1_000_000_000

    /// 10 s in real time: a frame per 1/30 s slot, every sample at both audio rates.
    @Test func tenLiveSecondsDeliverTheRightAmounts() throws {
        let started = Date()
        let recorded = try RecordedBroadcast.record("duration=10000000000", live: true, timeout: 20)
        let elapsed = Date().timeIntervalSince(started)
        #expect(recorded.run.error == nil)
        #expect(recorded.run.reachedEOS)
        #expect(elapsed >= 9.9 && elapsed < 11.5, "ran in real time: \(elapsed) s")
        #expect(abs(recorded.video.buffers.count - 300) <= 1, "\(recorded.video.buffers.count) frames in 10 s")
        for (recorder, rate, channels) in [(recorded.app, 44100, 2), (recorded.mic, 48000, 1)] {
            let samples = recorder.buffers.map { $0.size / (2 * channels) }.reduce(0, +)
            let expected = 10 * rate
            #expect(abs(samples - expected) <= expected / 1000, "\(samples) samples, expected \(expected) ± 0.1 %")
            // Timestamps follow the pipeline clock: the last buffer ends about 10 s after the first began.
            let span = Double((recorder.buffers.last.map { $0.pts + $0.duration } ?? 0) - (recorder.buffers.first?.pts ?? 0)) / 1e9
            #expect(abs(span - 10) < 0.05, "\(span) s of timestamps")
        }
    }

    @Test func actionSignalsPauseResumeAndFinish() throws {
        let recorded = try RecordedBroadcast.record("", live: true, pads: ["video", "audio_mic"], timeout: 10) { pipeline in
            let source = gst_bin_get_by_name(rc_bin(pipeline), "rk")!
            let box = UnsafeSendable(source)
            Thread.detachNewThread {
                for (delay, action) in [(0.5, "pause"), (1.0, "resume"), (0.5, "finish")] {
                    Thread.sleep(forTimeInterval: delay)
                    rc_emit_action(box.value, action)
                }
                gst_object_unref(box.value)
            }
        }
        #expect(recorded.run.reachedEOS)
        let names = recorded.run.elementMessages.map(\.fields.name).filter { $0.hasPrefix("replaykit-broadcast") }
        #expect(names == ["replaykit-broadcast-started", "replaykit-broadcast-paused", "replaykit-broadcast-resumed",
                          "replaykit-broadcast-finished"])
        let times = recorded.video.buffers.map(\.pts)
        let jumps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect((jumps.max() ?? 0) >= 900_000_000, "a pause of about a second between frames")
    }
}

extension ReplayKitLiveTests {
    /// The `event` action signal applies any schedule action now, and refuses what is not one.
    @Test func eventSignalAppliesScheduleActionsNow() throws {
        let answers = Locked<[Bool]>([])
        let recorded = try RecordedBroadcast.record("duration=1500000000", live: true, pads: ["video", "audio_mic"],
                                                    timeout: 10) { pipeline in
            let source = gst_bin_get_by_name(rc_bin(pipeline), "rk")!
            let box = UnsafeSendable(source)
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.5)
                let actions: [String] = ["orientation=left", "orientation=sideways", "mic-format=24000", "resme"]
                let results = actions.map { action in rc_emit_string_action(box.value, "event", action) != 0 }
                answers.withLock { $0 = results }
                gst_object_unref(box.value)
            }
        }
        #expect(recorded.run.reachedEOS)
        #expect(answers.withLock { $0 } == [true, false, true, false])
        let events = recorded.run.elementMessages.filter { $0.fields.name == "replaykit-broadcast-event" }
            .compactMap { message -> Fields.Value? in message.fields["action"] }
        #expect(events.suffix(2) == [.string("orientation=left"), .string("mic-format=24000")])
        #expect(recorded.video.tags.count == 1)
        #expect(recorded.video.tags.first?.contains("rotate-270") == true)
        let rates = recorded.mic.caps.compactMap { caps in caps.split(separator: ",").first { $0.contains("rate=") } }
        #expect(rates.map { $0.trimmingCharacters(in: .whitespaces) } == ["rate=(int)48000", "rate=(int)24000"])
    }

    @Test func eventSignalIsRefusedWhenTheBroadcastIsNotRunning() throws {
        let source = gst_element_factory_make("replaykitsrc", nil)!
        defer { gst_object_unref(source) }
        #expect(rc_emit_string_action(source, "event", "pause") == 0)
    }

    /// An application ending the pipeline sends it EOS: every pad of the source ends.
    @Test func eosSentToThePipelineFinishesEveryPad() throws {
        let started = Date()
        let recorded = try RecordedBroadcast.record("", live: true, timeout: 10) { pipeline in
            let box = UnsafeSendable(gst_object_ref(pipeline)!)
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 1)
                _ = gst_element_send_event(rc_element(box.value), gst_event_new_eos())
                gst_object_unref(box.value)
            }
        }
        #expect(recorded.run.reachedEOS)
        #expect(Date().timeIntervalSince(started) < 3)
        for recorder in [recorded.video, recorded.app, recorded.mic] { #expect(recorder.sawEOS) }
    }
}

/// Hands a GStreamer object to another thread (GObject refcounting is thread-safe).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
