// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import CTestSupport
import Foundation
@testable import ReplayCast
import ReplayCastSupport
import Testing

/// Odd buffers from a seeded generator (reproducible: the seed is in the test's name): empty
/// buffers, one frame, sizes that are not a whole number of frames, missing, repeated,
/// backwards and huge timestamps, DISCONT and GAP in odd places. Each element passes them
/// on or says what is wrong in an element error naming itself, never crashes or raises a
/// GLib critical (the suite runs with G_DEBUG=fatal-warnings), and measures or draws
/// correctly again once it gets good data after a flush (dualmixer: a flushing seek).
@Suite struct HostileInputTests {
    struct OddBuffer {
        let bytes: Int
        let pts: UInt64
        let flags: GstBufferFlags?
    }

    /// `count` buffers for a stream of `bytesPerFrame`-byte frames at `rate` frames a second.
    static func oddBuffers(seed: UInt64, count: Int, bytesPerFrame: Int, rate: Int, framesPerBuffer: Int) -> [OddBuffer] {
        var random = Seeded(state: seed)
        var buffers: [OddBuffer] = []
        var time: UInt64 = 0
        let step = UInt64(framesPerBuffer) * 1_000_000_000 / UInt64(rate)
        for _ in 0..<count {
            let bytes: Int
            switch random.next(4) {
            case 0: bytes = 0
            case 1: bytes = bytesPerFrame
            case 2: bytes = bytesPerFrame * (1 + random.next(framesPerBuffer)) + 1 + random.next(bytesPerFrame - 1)
            default: bytes = bytesPerFrame * framesPerBuffer
            }
            let pts: UInt64
            switch random.next(6) {
            case 0: pts = UInt64.max
            case 1: pts = time
            case 2: pts = time > step * 3 ? time - step * 3 : 0
            case 3: pts = UInt64.max / 4 + UInt64(random.next(1000)) * step
            default: time += step; pts = time
            }
            let flags: GstBufferFlags?
            switch random.next(8) {
            case 0: flags = GST_BUFFER_FLAG_DISCONT
            case 1: flags = GST_BUFFER_FLAG_GAP
            default: flags = nil
            }
            buffers.append(OddBuffer(bytes: bytes, pts: pts, flags: flags))
        }
        return buffers
    }

    static func push(_ buffers: [OddBuffer], into harness: Harness, byte: UInt8 = 0x40) -> (pushed: Int, out: Int) {
        var out = 0
        for buffer in buffers {
            harness.push([UInt8](repeating: byte, count: buffer.bytes), pts: buffer.pts, flags: buffer.flags)
            while let output = gst_harness_try_pull(harness.harness) {
                out += 1
                gst_buffer_unref(output)
            }
        }
        return (buffers.count, out)
    }

    /// FLUSH_START, FLUSH_STOP and a new TIME segment, as a flushing seek's source sends them;
    /// `seek` first sends the seek itself upstream through the element (an aggregator only
    /// restarts when its inputs flush for a seek it forwarded).
    static func flush(_ harness: Harness, seek: Bool = false) {
        var seqnum = gst_util_seqnum_next()
        if seek {
            let event = gst_event_new_seek(1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_NONE, -1)!
            seqnum = gst_event_get_seqnum(event)
            _ = gst_harness_push_upstream_event(harness.harness, event)
        }
        let start = gst_event_new_flush_start()!, stop = gst_event_new_flush_stop(1)!
        gst_event_set_seqnum(start, seqnum)
        gst_event_set_seqnum(stop, seqnum)
        _ = gst_harness_push_event(harness.harness, start)
        _ = gst_harness_push_event(harness.harness, stop)
        var segment = GstSegment()
        gst_segment_init(&segment, GST_FORMAT_TIME)
        _ = gst_harness_push_event(harness.harness, gst_event_new_segment(&segment))
    }

    /// volumemeter (interval 50 ms, 48 kHz stereo S16LE) measures right after a flush: 0.5 s
    /// of a 997 Hz sine at −20 dBFS gives ten intervals at its rms, −23.01 dB.
    static func expectMeasuresAgain(_ harness: Harness, _ label: String) {
        MessagePoster.flush()
        _ = harness.messages()
        let earlierErrors = harness.errors.count
        let sine = Signals.sine(frequency: 997, amplitude: 0.1, rate: 48000, frames: 24000, channels: 2)
        let bytes = Signals.encode(sine, as: .s16le)
        for k in 0..<50 {
            harness.push(Array(bytes[(k * 1920)..<((k + 1) * 1920)]), pts: UInt64(k) * 10_000_000)
            harness.discardOutput()
        }
        harness.pushEOS()
        let messages = harness.messages().filter { $0.name == "volumemeter" }
        #expect(harness.errors.count == earlierErrors, "\(label): \(harness.errors.dropFirst(earlierErrors))")
        #expect(messages.count == 10, "\(label): \(messages.count) intervals of 50 ms in 0.5 s")
        let levels = messages.flatMap { $0.doubles("rms") }
        #expect(levels.count == 2 * 10, "\(label): an rms per channel of each interval: \(levels.count)")
        for rms in levels {
            #expect(abs(rms - (-23.01)) < 0.05, "\(label): rms \(rms) dB")
        }
    }

    /// dualmixer (app pad at 44.1 kHz stereo S16LE, mic unlinked) mixes right after a
    /// flushing seek: 0.5 s of a 997 Hz sine at 0.5 comes out as 0.5 s at 48 kHz with its peak.
    static func expectMixesAgain(_ harness: Harness, _ label: String) {
        let sine = Signals.sine(frequency: 997, amplitude: 0.5, rate: 44100, frames: 22050, channels: 2)
        let bytes = Signals.encode(sine, as: .s16le)
        for k in 0..<50 {
            harness.push(Array(bytes[(k * 1764)..<((k + 1) * 1764)]), pts: UInt64(k) * 10_000_000)
        }
        harness.pushEOS()
        var frames = 0
        var peak = 0.0
        harness.pullUntilEOS { mixed in
            _ = mixed.withReadableBytes { data in
                let samples = data.bindMemory(to: Int16.self)
                frames += samples.count / 2
                for sample in samples { peak = max(peak, abs(Double(sample)) / 32768) }
            }
        }
        #expect(abs(frames - 24000) <= 480, "\(label): 0.5 s mixed after the flush: \(frames) frames at 48 kHz")
        #expect(abs(peak - 0.5) < 0.02, "\(label): the sine's peak: \(peak)")
    }

    @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
    func volumemeterTakesOddBuffersAndMeasuresAgainAfterAFlush(seed: UInt64) throws {
        let harness = Harness("volumemeter interval=50000000 loudness=true",
                              caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2")
        let odd = Self.oddBuffers(seed: seed, count: 200, bytesPerFrame: 4, rate: 48000, framesPerBuffer: 480)
        let (pushed, out) = Self.push(odd, into: harness)
        MessagePoster.flush() // the odd data's messages are on the bus, not among the next ones
        _ = harness.messages()
        #expect(harness.errors.allSatisfy { $0.contains("volumemeter") }, "\(harness.errors)")
        if harness.errors.isEmpty {
            #expect(out == pushed, "every buffer passes through: \(out) of \(pushed)")
        }

        Self.flush(harness)
        Self.expectMeasuresAgain(harness, "after odd input")
    }

    @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
    func dualmixerTakesOddBuffersOnAnInputAndMixesAgainAfterASeek(seed: UInt64) throws {
        let harness = Harness(factory: "dualmixer", sinkPad: "app",
                              caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=44100,channels=2")
        gst_harness_play(harness.harness)
        let odd = Self.oddBuffers(seed: seed, count: 200, bytesPerFrame: 4, rate: 44100, framesPerBuffer: 441)
        _ = Self.push(odd, into: harness)
        _ = harness.messages()
        #expect(harness.errors.allSatisfy { $0.contains("dualmixer") }, "\(harness.errors)")

        Self.flush(harness, seek: true)
        harness.discardOutput()
        Self.expectMixesAgain(harness, "after odd input")
    }

    /// rtmpreconnectsink in a harness, its video pad fed: no server on the port (its first
    /// attempt refused, the next one 10 s away), keeping the last second to send later.
    static func disconnectedPublisher(_ stream: String) throws -> Harness {
        try keepingPublisher("rtmp://127.0.0.1:9/live/\(stream)")
    }

    /// rtmpreconnectsink in a harness publishing to `location`, its video pad fed, keeping
    /// the last second while disconnected, a failed attempt retried 10 s later.
    static func keepingPublisher(_ location: String) throws -> Harness {
        GStreamerSetup.ensure()
        let sink = try #require(gst_element_factory_make("rtmpreconnectsink", nil))
        for (name, value) in [("location", location), ("while-disconnected", "keep"),
                              ("buffer-duration", "1000000000"), ("retry-delay", "10000000000")] {
            gst_util_set_object_arg(rc_gobject(sink), name, value)
        }
        let harness = Harness(sink: sink, sinkPad: "video",
                              caps: "video/x-h264,stream-format=avc,alignment=au,width=64,height=48,framerate=30/1")
        gst_object_unref(sink)
        return harness
    }

    /// 200 odd access units of `seed`, keyframes and delta units at random; how many were taken.
    static func pushOddAccessUnits(_ harness: Harness, seed: UInt64) -> Int {
        var keyframes = Seeded(state: seed &+ 1)
        var taken = 0
        for buffer in oddBuffers(seed: seed, count: 200, bytesPerFrame: 97, rate: 30, framesPerBuffer: 3) {
            var flags = buffer.flags?.rawValue ?? 0
            if keyframes.next(3) != 0 { flags |= GST_BUFFER_FLAG_DELTA_UNIT.rawValue }
            let bytes = (0..<buffer.bytes).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ Int(seed)) }
            if harness.push(bytes, pts: buffer.pts, flags: GstBufferFlags(rawValue: flags)) == GST_FLOW_OK { taken += 1 }
        }
        return taken
    }

    /// Odd H.264 access units (empty, short, random sizes; missing, repeated, backwards and
    /// huge timestamps; keyframes and delta units at random, DISCONT and GAP) into
    /// rtmpreconnectsink while no server answers and it keeps media to send later: every
    /// buffer is taken, nothing is an error, and EOS still ends the stream.
    @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
    func rtmpreconnectsinkKeepsOddAccessUnitsWhileDisconnectedAndEnds(seed: UInt64) throws {
        let harness = try Self.disconnectedPublisher("hostile")
        let taken = Self.pushOddAccessUnits(harness, seed: seed)
        harness.pushEOS()
        harness.waitForSinkEOS()
        #expect(taken == 200, "every buffer taken: \(taken) of 200")
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        // At least one: the element posts its EOS again on each return to PLAYING, and the
        // harness's start can pass through PLAYING twice on a loaded machine.
        #expect(harness.endsOfStream >= 1, "EOS without a connection")
    }

    /// The same odd access units published over SRT to a real srt-live-transmit, where they
    /// go through h264parse and mpegtsmux (over RTMP, while disconnected, they only wait):
    /// every buffer is taken and nothing is an error. The harness then releases the video
    /// pad while the attempt is still open, and stops the element: the attempt, closed after
    /// the pad is gone, once unlinked the freed pad (a GStreamer-CRITICAL, fatal here).
    @Test(arguments: [UInt64(1), 42])
    func rtmpreconnectsinkTakesOddAccessUnitsOverSrtAndLetsItsPadGo(seed: UInt64) throws {
        let receiver = try SrtReceiver()
        defer { receiver.stop() }
        let harness = try Self.keepingPublisher(receiver.url)
        let taken = Self.pushOddAccessUnits(harness, seed: seed)
        usleep(500_000)
        _ = harness.messages()
        #expect(taken == 200, "every buffer taken: \(taken) of 200")
        #expect(harness.errors.isEmpty, "\(harness.errors)")
    }

    /// Main picture buffers smaller than the caps say (100, 0, 28799 and 1 of 28800 bytes)
    /// among good ones: every input gives an output frame, the short ones without the main
    /// picture (compositor also skips a frame it cannot map), and no error.
    @Test func pipcompositorDrawsFramesWithoutShortMainBuffers() throws {
        let harness = Harness(factory: "pipcompositor", sinkPad: "sink_0",
                              caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1")
        let sizes = [28800, 100, 0, 28799, 28800, 1, 28800]
        var firstLuma: [UInt8] = []
        for (index, size) in sizes.enumerated() {
            harness.push([UInt8](repeating: 0x80, count: size), pts: UInt64(index) * 33_333_333, duration: 33_333_333)
        }
        harness.pushEOS()
        harness.pullUntilEOS { frame in _ = frame.withReadableBytes { firstLuma.append($0[0]) } }
        _ = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(firstLuma.count == sizes.count, "one output per input: \(firstLuma)")
        #expect(firstLuma.map { $0 == 0x80 } == sizes.map { $0 == 28800 }, "main shown only from whole buffers: \(firstLuma)")
    }

    /// Pad sizes at the top of their param specs: a PiP (or main picture) more than four
    /// times the output's size is left out of the frame, with one warning naming the pad,
    /// instead of allocating gigabytes for it; four times is still drawn.
    @Test(arguments: [(2_147_483_647, false), (640, true)])
    func pipcompositorLeavesOutPicturesTooLargeToDraw(width: Int, drawn: Bool) throws {
        let out = PadRecorder(inspect: { bytes in String(bytes.prefix(160 * 120).filter { $0 != 235 }.count) })
        let run = try PipelineRun.run(
            "videotestsrc num-buffers=5 pattern=white ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! pip.sink_0 "
                + "videotestsrc num-buffers=5 pattern=black ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! pip.sink_1 "
                + "pipcompositor name=pip sink_1::width=\(width) sink_1::ypos=8 ! fakesink name=out",
            prepare: { out.attach(to: $0, element: "out", pad: "sink") })
        #expect(run.error == nil && run.reachedEOS)
        let covered = out.buffers.compactMap { $0.note.flatMap { Int($0) } }
        #expect(covered.count == 5, "five frames: \(covered)")
        // Drawn at 640 wide from x = 0, the PiP covers rows 8…31 of the 160-pixel-wide frame.
        #expect(covered.allSatisfy { $0 == (drawn ? 160 * 24 : 0) }, "luma samples not white: \(covered)")
        let warnings = run.warnings.filter { $0.contains("sink_1") && $0.contains("\(width)x24") }
        #expect(warnings.count == (drawn ? 0 : 1) && run.warnings.count == warnings.count, "\(run.warnings)")
    }

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
