// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import CGStreamer
import CReplayCast
import MediaKernels
import Testing

/// Interval bookkeeping: exact in samples, independent of buffering, nothing lost at EOS.
@Suite struct VolumeMeterIntervalTests {
    @Test(arguments: [1, 7, 480, 4801, 16800])
    func sameMessagesWhateverTheBufferSize(framesPerBuffer: Int) {
        let rate = 48000, channels = 2
        let samples = Signals.fallingSteps(rate: rate, frames: 16800, channels: channels, stepFrames: 3000)
        let reference = meterMessages("volumemeter loudness=true", samples: samples, format: .s16le, rate: rate,
                                      channels: channels, framesPerBuffer: 4800)
        let messages = meterMessages("volumemeter loudness=true", samples: samples, format: .s16le, rate: rate,
                                     channels: channels, framesPerBuffer: framesPerBuffer)
        expectSameMessages(messages, reference, count: 4)
    }

    /// Ten-second buffers against 10 ms buffers, 44.1 kHz mono.
    @Test func tenSecondBuffers() {
        let samples = Signals.fallingSteps(rate: 44100, frames: 441_000, channels: 1, stepFrames: 22050)
        let small = meterMessages("volumemeter", samples: samples, format: .f32le, rate: 44100, channels: 1, framesPerBuffer: 441)
        let huge = meterMessages("volumemeter", samples: samples, format: .f32le, rate: 44100, channels: 1, framesPerBuffer: 441_000)
        expectSameMessages(huge, small, count: 100)
    }

    /// Timestamps, durations and counts are identical; levels agree to 1e-6 dB (the float
    /// partial sums of the SIMD kernel are grouped differently for different buffer sizes).
    /// Not `decay`: it follows level's per-buffer accounting, so it depends on buffer sizes as
    /// level's does (VolumeMeterLevelTests compares it with level at several sizes).
    func expectSameMessages(_ messages: [Fields], _ reference: [Fields], count: Int) {
        #expect(messages.count == count)
        #expect(reference.count == count)
        var compared = 0
        for (a, b) in zip(messages, reference) {
            for field in ["timestamp", "duration", "running-time", "stream-time", "endtime"] {
                #expect(a.uint64(field) == b.uint64(field), "\(field)")
            }
            for field in ["rms", "peak", "true-peak"] {
                let ours = a.doubles(field), theirs = b.doubles(field)
                #expect(ours.count == theirs.count, "\(field): \(ours.count) values against \(theirs.count)")
                for (u, v) in zip(ours, theirs) { #expect(abs(u - v) <= 1e-6, "\(field) \(u) \(v)") }
                compared += ours.count
            }
            for field in ["volume", "momentary", "short-term", "integrated"] {
                #expect((a.double(field) == nil) == (b.double(field) == nil), "\(field) in one message only")
                if let u = a.double(field), let v = b.double(field) { #expect(abs(u - v) <= 1e-6, "\(field) \(u) \(v)") }
            }
        }
        // rms and peak for every channel of every message, at least.
        #expect(compared >= 2 * count, "level values compared: \(compared)")
    }

    @Test func lastPartialIntervalIsPostedAtEOS() {
        let samples = Signals.sine(frequency: 500, amplitude: 0.25, rate: 32000, frames: 8000)
        let messages = meterMessages("volumemeter", samples: samples, format: .s16le, rate: 32000, channels: 1, framesPerBuffer: 1024)
        #expect(messages.compactMap { $0.uint64("timestamp") } == [0, 100_000_000, 200_000_000])
        #expect(messages.compactMap { $0.uint64("duration") } == [100_000_000, 100_000_000, 50_000_000])
        #expect(messages.compactMap { $0.uint64("endtime") } == [100_000_000, 200_000_000, 250_000_000])
        #expect(abs(messages[2].doubles("rms")[0] - (20 * log10(0.25) - 3.0103)) <= 0.01)
    }

    @Test(arguments: [SampleFormat.s16le, .f32le])
    func silenceReportsTheFloor(format: SampleFormat) {
        let zeros = [Double](repeating: 0, count: 9600 * 2)
        for flags in [nil, GST_BUFFER_FLAG_GAP] {
            let messages = meterMessages("volumemeter loudness=true", samples: zeros, format: format, rate: 48000,
                                         channels: 2, framesPerBuffer: 960, flags: flags)
            #expect(messages.count == 2)
            for message in messages {
                for field in ["rms", "peak", "decay", "true-peak"] {
                    #expect(message.doubles(field) == [Decibels.floor, Decibels.floor], "\(field)")
                }
                for field in ["momentary", "short-term", "integrated"] { #expect(message.double(field) == Decibels.floor) }
                #expect(message.double("volume") == Decibels.floor + LevelMeter.sixteenBitFullScaleDecibels)
            }
        }
    }

    /// A DISCONT buffer that jumps ahead closes the interval in progress and restarts the
    /// intervals at the new timestamp; a DISCONT flag without a jump changes nothing.
    @Test func discontinuityRestartsIntervals() {
        let harness = Harness("volumemeter", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=1")
        let chunk = Signals.encode(Signals.sine(frequency: 440, amplitude: 0.5, rate: 48000, frames: 2400), as: .s16le)
        harness.push(chunk, pts: 0)
        harness.push(chunk, pts: 50_000_000, flags: GST_BUFFER_FLAG_DISCONT)
        harness.push(chunk, pts: 100_000_000)
        harness.push(chunk, pts: 1_000_000_000, flags: GST_BUFFER_FLAG_DISCONT)
        harness.push(chunk, pts: 1_050_000_000)
        harness.pushEOS()
        let messages = harness.messages().filter { $0.name == "volumemeter" }
        #expect(messages.compactMap { $0.uint64("timestamp") } == [0, 100_000_000, 1_000_000_000])
        #expect(messages.compactMap { $0.uint64("duration") } == [100_000_000, 50_000_000, 100_000_000])
    }

    /// Properties written while buffers flow act from the next buffer on (the streaming
    /// thread copies the settings again only when a write was counted): a shorter interval,
    /// then messages off for one buffer and on again.
    @Test func propertiesWrittenMidStreamActOnTheNextBuffer() {
        let harness = Harness("volumemeter name=meter", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=1")
        let chunk = Signals.encode(Signals.sine(frequency: 440, amplitude: 0.5, rate: 48000, frames: 2400), as: .s16le)
        let meter = gst_bin_get_by_name(rc_bin(harness.element), "meter")!
        defer { gst_object_unref(meter) }
        let element = rc_gobject(meter)
        harness.push(chunk, pts: 0)
        harness.push(chunk, pts: 50_000_000)
        gst_util_set_object_arg(element, "interval", "25000000")
        harness.push(chunk, pts: 100_000_000)
        harness.push(chunk, pts: 150_000_000)
        gst_util_set_object_arg(element, "post-messages", "false")
        harness.push(chunk, pts: 200_000_000)
        gst_util_set_object_arg(element, "post-messages", "true")
        harness.push(chunk, pts: 250_000_000)
        harness.pushEOS()
        let messages = harness.messages().filter { $0.name == "volumemeter" }
        #expect(messages.compactMap { $0.uint64("timestamp") }
                == [0, 100_000_000, 125_000_000, 150_000_000, 175_000_000, 250_000_000, 275_000_000])
        #expect(messages.compactMap { $0.uint64("duration") } == [100_000_000] + Array(repeating: 25_000_000, count: 6))
    }
}
