// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastKit
import ReplayCastSupport
import ReplayCastTools
import ReplayKitModel
import Testing

/// Device traces: a run recorded by TraceRecorder and replayed by replaykitsrc's `trace`
/// property gives the same buffers; a hand-written trace replays as written; a bad line
/// stops the start naming the file, the line and the field.
@Suite struct ReplayKitTraceTests {
    static let schedule = "2s:pause; 4s:resume; 6s:mic-format=24000; 9s:orientation=right; 12s:call-start; 15s:call-end"

    /// What a pad carried that a replay must repeat: caps, orientation tags and buffers
    /// (time, duration, size, DISCONT and GAP flags), in order, times from `origin`.
    static func stream(_ recorder: PadRecorder, origin: UInt64 = 0) -> [PadRecorder.Record] {
        recorder.all.compactMap { record in
            switch record {
            case .caps, .tag: return record
            case .buffer(var buffer):
                buffer.pts -= origin
                return .buffer(buffer)
            default: return nil
            }
        }
    }

    /// Records a run of replaykitsrc with `properties` and returns it with its trace.
    static func recordTrace(_ properties: String, live: Bool = false) throws -> (RecordedBroadcast, String) {
        let recorder = Locked<TraceRecorder?>(nil)
        let run = try RecordedBroadcast.record(properties, live: live, timeout: 60, prepare: { pipeline in
            let source = gst_bin_get_by_name(rc_bin(pipeline), "rk")!
            defer { gst_object_unref(source) }
            recorder.withLock { $0 = try? TraceRecorder(source: rc_element(source)) }
        }, finished: { _ in recorder.withLock { $0?.detach() } })
        let text = try #require(recorder.withLock { $0?.text })
        return (run, text)
    }

    static func expectSame(_ replayed: [PadRecorder.Record], _ original: [PadRecorder.Record], _ pad: String) {
        let first = zip(replayed, original).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil, "\(pad): record \(first?.offset ?? 0) differs: \(String(describing: first?.element.0)) vs \(String(describing: first?.element.1))")
        #expect(replayed.count == original.count, "\(pad): \(replayed.count) records replayed, \(original.count) recorded")
    }

    @Test func aRecordedRunReplaysAsTheSameBuffersInTheSameOrder() throws {
        let folder = try temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (original, text) = try Self.recordTrace(
            "width=128 height=256 audio-after-call=true duration=30000000000 setup-info=\"setup,broadcastName=roundtrip\" "
            + "schedule=\"\(Self.schedule)\"")
        #expect(original.run.error == nil && original.run.reachedEOS)
        let path = folder.appendingPathComponent("run.trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let videoLines = lines.filter { $0.hasPrefix(#"{"sample":"video""#) }.count
        #expect(videoLines == 840, "30 s less the 2 s pause, at 30 frames a second")
        #expect(lines.filter { $0.hasPrefix(#"{"lifecycle""#) }.count == 4, "started, paused, resumed, finished")

        let replay = try RecordedBroadcast.record("trace=\(path)", timeout: 60)
        #expect(replay.run.error == nil && replay.run.reachedEOS)
        for (pad, recorded, replayed) in [("video", original.video, replay.video), ("audio_app", original.app, replay.app),
                                          ("audio_mic", original.mic, replay.mic)] {
            Self.expectSame(Self.stream(replayed), Self.stream(recorded), pad)
        }
        #expect(replay.video.buffers.count == 840)
        #expect(replay.video.buffers.filter(\.discont).count == 2, "the first frame and the first after the pause")
        #expect(replay.mic.caps.last?.contains("rate=(int)24000") == true)
        #expect(replay.video.tags.count == 1 && replay.video.tags[0].contains("rotate-90"))
        // Call 12-15 s and pause 2-4 s: 25 s of app audio at 44.1 kHz in 1024-frame buffers, one cut at the finish.
        #expect((1074...1078).contains(replay.app.buffers.count), "\(replay.app.buffers.count) app buffers")
        for name in ["replaykit-broadcast-paused", "replaykit-broadcast-resumed", "replaykit-broadcast-finished"] {
            let recorded = original.run.messages(from: "rk", named: name).map { $0.uint64("broadcast-time") }
            #expect(replay.run.messages(from: "rk", named: name).map { $0.uint64("broadcast-time") } == recorded)
            #expect(recorded.count == 1)
        }
        let started = try #require(replay.run.messages(from: "rk", named: "replaykit-broadcast-started").first)
        let recordedStart = try #require(original.run.messages(from: "rk", named: "replaykit-broadcast-started").first)
        #expect(started["width"] == .int(128) && started["height"] == .int(256))
        #expect(started["setup-info"] != nil && started["setup-info"] == recordedStart["setup-info"])
    }

    /// An 886x1918 screen at 600 per second, host-time origin, AirPods moving the mic to 24 kHz
    /// at 5 s, a call at 8 s (no audio after it), finished at 10 s.
    static func handWrittenTrace() -> String {
        let origin = 98_765
        func time(_ value: Int, _ timescale: Int) -> String { #"{"value":\#(value),"timescale":\#(timescale)}"# }
        func audio(_ type: String, _ value: Int, rate: Int, channels: Int, flags: Int) -> String {
            #"{"sample":"\#(type)","pts":\#(time(value, rate)),"numSamples":1024,"asbd":{"mSampleRate":\#(rate),"#
                + #""mFormatID":"lpcm","mFormatFlags":\#(flags),"mChannelsPerFrame":\#(channels),"mBitsPerChannel":16}}"#
        }
        var lines = [#"{"format":"replaycast-broadcast-trace","version":1}"#,
                     #"{"lifecycle":"started","time":\#(time(origin, 1)),"setupInfo":{"broadcastName":"handwritten"}}"#]
        lines += (0..<300).map { k in
            #"{"sample":"video","pts":\#(time(origin * 600 + k * 20, 600)),"duration":{"value":0,"timescale":0,"flags":0},"#
                + #""width":886,"height":1918,"pixelFormat":875704422,"orientation":1}"#
        }
        lines += (0..<344).map { audio("audioApp", origin * 44100 + $0 * 1024, rate: 44100, channels: 2, flags: 14) }
        lines += (0..<234).map { audio("audioMic", origin * 48000 + $0 * 1024, rate: 48000, channels: 1, flags: 12) }
        lines += (0..<70).map { audio("audioMic", (origin + 5) * 24000 + $0 * 1024, rate: 24000, channels: 1, flags: 12) }
        lines.append(#"{"lifecycle":"finished","time":\#(time(origin + 10, 1))}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    static func nanoseconds(_ count: Int, _ rate: Int) -> UInt64 {
        UInt64((Double(count) * 1e9 / Double(rate)).rounded())
    }

    @Test func aHandWrittenTraceReplaysWithItsFormatsAndTimes() throws {
        let folder = try temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("hand.trace").path
        try Self.handWrittenTrace().write(toFile: path, atomically: true, encoding: .utf8)
        let replay = try RecordedBroadcast.record("trace=\(path)")
        #expect(replay.run.error == nil && replay.run.reachedEOS)

        #expect(replay.video.caps.count == 1 && replay.video.caps[0].contains("width=(int)886, height=(int)1918"))
        #expect(replay.video.buffers.map(\.pts) == (0..<300).map { Self.nanoseconds($0, 30) })
        #expect(replay.video.buffers.allSatisfy { $0.size == 888 * 1918 * 3 / 2 }, "NV12, rows padded to 4 bytes")

        #expect(replay.app.caps == ["audio/x-raw, format=(string)S16BE, layout=(string)interleaved, rate=(int)44100, channels=(int)2, channel-mask=(bitmask)0x0000000000000003"])
        #expect(replay.app.buffers.map(\.pts) == (0..<344).map { Self.nanoseconds($0 * 1024, 44100) })
        #expect(replay.app.buffers.allSatisfy { $0.size == 4096 })

        #expect(replay.mic.caps.count == 2 && replay.mic.caps[0].contains("rate=(int)48000") && replay.mic.caps[1].contains("rate=(int)24000"))
        let mic = replay.mic.buffers
        #expect(mic.map(\.pts) == (0..<234).map { Self.nanoseconds($0 * 1024, 48000) }
                + (0..<70).map { 5_000_000_000 + Self.nanoseconds($0 * 1024, 24000) })
        #expect(mic.filter(\.discont).map(\.pts) == [0, 5_000_000_000], "the start and the format change")
        #expect(replay.mic.gaps.first.map { $0.pts } == Self.nanoseconds(234 * 1024, 48000), "the rest of 5 s announced")
        #expect(!replay.app.buffers.contains { $0.pts >= 8_000_000_000 } && !mic.contains { $0.pts >= 8_000_000_000 })

        let started = try #require(replay.run.messages(from: "rk", named: "replaykit-broadcast-started").first)
        #expect(started["width"] == .int(886))
        #expect(started["setup-info"].map { "\($0)".contains("broadcastName") && "\($0)".contains("handwritten") } == true)
        #expect(replay.run.messages(from: "rk", named: "replaykit-broadcast-finished").map { $0.uint64("broadcast-time") } == [10_000_000_000])
    }

    @Test func aBadLineStopsTheStartNamingTheFileTheLineAndTheField() throws {
        let folder = try temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.trace").path
        var lines = Self.handWrittenTrace().split(separator: "\n").map(String.init)
        lines[4] = lines[4].replacing(#""orientation":1"#, with: #""orientaton":1"#)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let run = try RecordedBroadcast.record("trace=\(path)")
        let error = try #require(run.run.error)
        #expect(error.source == "rk")
        #expect(error.text == "replaykitsrc: trace \(path):5: orientaton: not a member of this line (misspelt?)")
        #expect(run.video.buffers.isEmpty)

        let missing = try RecordedBroadcast.record("trace=\(folder.path)/none.trace").run.error
        #expect(missing?.text.hasPrefix("replaykitsrc: trace \(folder.path)/none.trace: ") == true)
        let good = folder.appendingPathComponent("good.trace").path
        try Self.handWrittenTrace().write(toFile: good, atomically: true, encoding: .utf8)
        let both = try RecordedBroadcast.record("trace=\(good) schedule=\"1s:pause\"").run.error
        #expect(both?.text == "replaykitsrc: schedule and trace cannot be combined: the trace holds the broadcast's lifecycle")
    }
}

/// The same round trip on the clock: times are the schedule's, so a live replay repeats the
/// live run's buffers exactly once both are counted from their first frame.
@Suite(.serialized) struct ReplayKitTraceLiveTests {
    /// 6 s with every kind of change: a pause, a mic format switch, an orientation change and a call.
    @Test func aLiveRunReplaysLiveAsTheSameBuffers() throws {
        let folder = try temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let schedule = "1s:pause; 1500ms:resume; 2s:mic-format=24000; 3s:orientation=right; 4s:call-start; 5s:call-end"
        let (original, text) = try ReplayKitTraceTests.recordTrace(
            "width=128 height=256 duration=6000000000 audio-after-call=true schedule=\"\(schedule)\"", live: true)
        let path = folder.appendingPathComponent("live.trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let replay = try RecordedBroadcast.record("trace=\(path)", live: true)
        #expect(original.run.reachedEOS && replay.run.reachedEOS)
        let recordedOrigin = try #require(original.video.buffers.first?.pts)
        let replayedOrigin = try #require(replay.video.buffers.first?.pts)
        for (pad, recorded, replayed) in [("video", original.video, replay.video), ("audio_app", original.app, replay.app),
                                          ("audio_mic", original.mic, replay.mic)] {
            ReplayKitTraceTests.expectSame(ReplayKitTraceTests.stream(replayed, origin: replayedOrigin),
                                           ReplayKitTraceTests.stream(recorded, origin: recordedOrigin), pad)
        }
        #expect(replay.video.buffers.count == 165, "6 s less the 0.5 s pause at 30 frames a second")
        #expect(replay.video.tags.count == 1 && replay.video.tags[0].contains("rotate-90"))
        #expect(replay.mic.caps.last?.contains("rate=(int)24000") == true)
        // The call silences both audio streams from 4 to 5 s.
        for buffers in [replay.app.buffers, replay.mic.buffers] {
            #expect(!buffers.contains { $0.pts - replayedOrigin >= 4_000_000_000 && $0.pts - replayedOrigin < 4_900_000_000 })
        }
    }
}
