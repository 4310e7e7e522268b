// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import MediaKernels
@testable import ReplayCast
import Testing

extension FlushingSeekTests {
    @Test func volumemeterRestartsItsIntervalsLikeLevel() throws {
        let source = "audiotestsrc samplesperbuffer=960 wave=sine ! \(Self.audio)"
        let seeked = try Self.seek("\(source) ! volumemeter name=meter interval=100000000 ! fakesink sync=true name=out "
                                   + "\(source) ! level name=level interval=100000000 ! fakesink sync=true name=peer",
                                   observed: ["out", "peer"])
        #expect(seeked.accepted && seeked.run.error == nil && seeked.run.reachedEOS)
        // volumemeter passes the source's 960-frame buffers (20 ms at 48 kHz) through.
        Self.expectCovered(seeked.after["out"]!, duration: 20_000_000, "volumemeter")
        // level also reports an empty interval at EOS (duration 0); volumemeter does not.
        func streamTimes(_ source: String, _ name: String) -> [UInt64] {
            seeked.run.messages(from: source, named: name).filter { ($0.uint64("duration") ?? 0) > 0 }
                .compactMap { $0.uint64("stream-time") }
        }
        let ours = streamTimes("meter", "volumemeter"), peer = streamTimes("level", "level")
        let afterSeek = ours.filter { $0 >= Self.start }
        #expect(afterSeek == [500, 600, 700, 800, 900].map { UInt64($0) * 1_000_000 }, "\(ours)")
        #expect(!ours.contains { $0 > 200_000_000 && $0 < Self.start }, "no interval across the seek: \(ours)")
        #expect(afterSeek == peer.filter { $0 >= Self.start }, "level: \(peer)")
    }
}

extension CapsChangeTests {
    struct AudioSection {
        let format: SampleFormat
        let rate: Int
        let channels: Int
        let amplitude: Double
        var caps: String {
            "audio/x-raw,format=\(Signals.capsName(format)),layout=interleaved,rate=\(rate),channels=\(channels)"
        }
    }

    /// 0.3 s per section, in 10 ms buffers, timestamps running on across the changes.
    static func meter(_ description: String, _ sections: [AudioSection]) -> [Fields] {
        let harness = Harness(description, caps: sections[0].caps)
        var pts: UInt64 = 0
        for section in sections {
            gst_harness_set_src_caps_str(harness.harness, section.caps)
            let frames = section.rate / 100
            let samples = Signals.sine(frequency: 997, amplitude: section.amplitude, rate: section.rate,
                                       frames: frames * 30, channels: section.channels)
            let bytes = Signals.encode(samples, as: section.format)
            let size = frames * section.channels * section.format.bytesPerSample
            for k in 0..<30 {
                harness.push(Array(bytes[(k * size)..<((k + 1) * size)]), pts: pts, duration: 10_000_000)
                harness.discardOutput()
                pts += 10_000_000
            }
        }
        harness.pushEOS()
        MessagePoster.flush()
        let messages = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        return messages.filter { $0.name == "volumemeter" || $0.name == "level" }
    }

    @Test func volumemeterFollowsFormatRateAndChannelsLikeLevel() {
        let sections = [AudioSection(format: .s16le, rate: 48000, channels: 2, amplitude: 0.5),
                        AudioSection(format: .f32le, rate: 44100, channels: 1, amplitude: 0.25),
                        AudioSection(format: .s16le, rate: 24000, channels: 2, amplitude: 0.125)]
        let ours = Self.meter("volumemeter interval=100000000", sections)
        let peer = Self.meter("level interval=100000000", sections)
        #expect(ours.count == 9 && peer.count >= ours.count, "three 100 ms intervals per section: \(ours.count), level \(peer.count)")
        let expected = [-6.02, -12.04, -18.06]
        for (index, message) in ours.enumerated() {
            let peaks = message.doubles("peak"), theirs = peer[index].doubles("peak")
            #expect(peaks.count == sections[index / 3].channels && peaks.count == theirs.count, "interval \(index): \(peaks)")
            for (ours, level) in zip(peaks, theirs) {
                #expect(abs(ours - expected[index / 3]) < 0.05 && abs(ours - level) < 0.01, "interval \(index): \(ours) dB, level \(level) dB")
            }
        }
    }
}

extension HostileInputTests {
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
}

extension PropertyThrashTests {
    @Test func volumemeterPassesAudioThroughUnchangedAndMeasures() throws {
        let description = "audiotestsrc num-buffers=75 samplesperbuffer=960 ! \(Self.audio) ! volumemeter name=el ! fakesink sync=true name=out"
        let alone = try Self.play(description)
        let thrashed = try Self.play(description, targets: ["el"])
        Self.expectThrashedWhilePlaying(thrashed, "volumemeter", properties: 8)
        #expect(thrashed.out.buffers.count == 75)
        #expect(thrashed.out.buffers == alone.out.buffers, "the same bytes at the same times")
        let meters = thrashed.run.messages(from: "el", named: "volumemeter")
        let values = meters.flatMap { $0.doubles("rms") + $0.doubles("peak") + $0.doubles("decay") }
        #expect(!meters.isEmpty && values.count >= meters.count * 6)
        #expect(values.allSatisfy { $0 <= 0.01 && !$0.isNaN }, "levels in dBFS: \(values.filter { $0 > 0.01 || $0.isNaN })")
        print("volumemeter thrash: \(thrashed.written), \(meters.count) messages")
    }
}

extension InheritedPropertyParityTests {
    /// qos: after a QoS event saying downstream is 250 ms late at 0, a transform that handles
    /// QoS drops the buffers that would be late (running time before 0 + 2 x 250 ms); without
    /// it every buffer passes. Ten 100 ms buffers of a tone through each, in a harness.
    @Test(arguments: [true, false])
    func volumemeterQoS(enabled: Bool) throws {
        func passed(_ factory: String) -> Int {
            let harness = Harness("\(factory) qos=\(enabled)", caps: "audio/x-raw,format=S16LE,rate=48000,channels=1,layout=interleaved")
            let tone = Signals.encode(Signals.sine(frequency: 440, amplitude: 0.5, rate: 48000, frames: 4800), as: .s16le)
            harness.push(tone, pts: 0, duration: 100_000_000)
            _ = gst_harness_push_upstream_event(harness.harness, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 0.5, 250_000_000, 0))
            for index in 1..<10 { harness.push(tone, pts: UInt64(index) * 100_000_000, duration: 100_000_000) }
            return Int(gst_harness_buffers_received(harness.harness))
        }
        let ours = passed("volumemeter"), peer = passed("level")
        #expect(ours == peer && (enabled ? ours < 10 : ours == 10), "qos=\(enabled): volumemeter passed \(ours) of 10 buffers, level \(peer)")
        print("qos=\(enabled): volumemeter passed \(ours) of 10 buffers, level \(peer)")
    }
}
