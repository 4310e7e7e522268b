// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import MediaKernels
import Testing

/// volumemeter against known signals and against GStreamer's own `level`.
@Suite struct VolumeMeterLevelTests {
    func levels(_ caps: String, volume: Double, wave: String = "sine") throws -> [Fields] {
        let run = try PipelineRun.run(
            "audiotestsrc num-buffers=20 freq=1000 wave=\(wave) volume=\(volume) ! \(caps) ! volumemeter name=m ! fakesink")
        #expect(run.error == nil, "\(String(describing: run.error))")
        let messages = run.messages(from: "m", named: "volumemeter")
        #expect(messages.count >= 4)
        return messages
    }

    @Test(arguments: ["S16LE", "S32LE", "F32LE", "F64LE"])
    func fullScaleSine(format: String) throws {
        for message in try levels("audio/x-raw,format=\(format),rate=48000,channels=2", volume: 1.0) {
            let rms = message.doubles("rms"), peak = message.doubles("peak")
            #expect(rms.count == 2 && peak.count == 2, "a value per channel: \(rms) \(peak)")
            for value in rms { #expect(abs(value - -3.0103) <= 0.01) }
            for value in peak { #expect(abs(value) <= 0.01) }
        }
    }

    @Test func minusTwentyDecibelSine() throws {
        for message in try levels("audio/x-raw,format=F32LE,rate=44100,channels=1", volume: 0.1) {
            #expect(abs(message.doubles("rms")[0] - -23.0103) <= 0.01)
            #expect(abs(message.doubles("peak")[0] - -20.0) <= 0.01)
        }
    }

    /// level reads native-endian formats only; S16BE is checked against S16LE below.
    @Test(arguments: [SampleFormat.s16le, .s32le, .f32le, .f64le])
    func agreesWithLevel(format: SampleFormat) {
        let rate = 48000, channels = 2
        let samples = Signals.fallingSteps(rate: rate, frames: rate * 3, channels: channels, stepFrames: rate / 5)
        let ours = meterMessages("volumemeter", samples: samples, format: format, rate: rate, channels: channels, framesPerBuffer: rate / 10)
        // level also posts an empty (0 ns, NaN) message at EOS; we post nothing when nothing is pending.
        let theirs = meterMessages("level", samples: samples, format: format, rate: rate, channels: channels, framesPerBuffer: rate / 10)
            .filter { $0.uint64("duration") != 0 }
        #expect(ours.count == 30)
        #expect(ours.count == theirs.count)
        var decayFell = false
        for (a, b) in zip(ours, theirs) {
            #expect(a.uint64("timestamp") == b.uint64("timestamp"))
            #expect(a.uint64("duration") == b.uint64("duration"))
            for field in ["rms", "peak", "decay"] {
                let x = a.doubles(field), y = b.doubles(field)
                #expect(x.count == channels && y.count == channels)
                for (u, v) in zip(x, y) { #expect(abs(u - v) <= 0.01, "\(field): \(u) vs level \(v)") }
            }
            if zip(a.doubles("decay"), a.doubles("peak")).contains(where: { $0 > $1 + 1 }) { decayFell = true }
        }
        #expect(decayFell, "the signal must exercise the decaying peak's falloff")
    }

    /// Noise and music-like signals, buffer sizes that do not divide the interval (and one
    /// that straddles it), every native format: level's decaying peak, step for step.
    @Test(arguments: [SampleFormat.s16le, .s32le, .f32le, .f64le], [441, 1000, 4801])
    func decayFollowsLevelOnNoiseAndMusic(format: SampleFormat, framesPerBuffer: Int) {
        let rate = 44100, channels = 2
        var compared = 0
        for (name, samples) in [("noise", Self.burstyNoise(rate: rate, seconds: 3)), ("music", Self.music(rate: rate, seconds: 3))] {
            let ours = meterMessages("volumemeter", samples: samples, format: format, rate: rate, channels: channels,
                                     framesPerBuffer: framesPerBuffer)
            let theirs = meterMessages("level", samples: samples, format: format, rate: rate, channels: channels,
                                       framesPerBuffer: framesPerBuffer).filter { $0.uint64("duration") != 0 }
            #expect(ours.count == 30 && theirs.count == 30, "\(name): \(ours.count) vs level \(theirs.count) messages")
            var fell = 0
            for (a, b) in zip(ours, theirs) {
                for field in ["rms", "peak", "decay"] {
                    for (u, v) in zip(a.doubles(field), b.doubles(field)) {
                        #expect(abs(u - v) <= 0.01, "\(name) \(field) at \(a.uint64("timestamp") ?? 0): \(u) vs level \(v)")
                        compared += 1
                    }
                }
                if zip(a.doubles("decay"), a.doubles("peak")).contains(where: { $0 > $1 + 1 }) { fell += 1 }
            }
            #expect(fell >= 5, "\(name): the decaying peak must fall in several intervals (\(fell))")
        }
        #expect(compared == 2 * 30 * 3 * channels)
    }

    /// White noise whose level jumps every 0.37 s between -6, -30, -12 and -40 dBFS.
    static func burstyNoise(rate: Int, seconds: Int) -> [Double] {
        var state: UInt64 = 0x9E3779B97F4A7C15
        let levels = [-6.0, -30, -12, -40].map { pow(10, $0 / 20) }
        return (0..<(rate * seconds * 2)).map { index in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let white = Double(Int64(bitPattern: state) >> 11) / Double(1 << 52)
            let frame = index / 2
            return white * levels[(frame * 100 / (rate * 37)) % levels.count]
        }
    }

    /// Notes of 0.23 s, each three harmonics under a falling envelope, a melody that moves
    /// between loud and soft; the right channel an octave up and quieter.
    static func music(rate: Int, seconds: Int) -> [Double] {
        let notes = [220.0, 330, 262, 392, 294, 440, 196, 349]
        let loudness = [0.8, 0.3, 0.6, 0.1, 0.9, 0.2, 0.5, 0.05]
        let noteFrames = rate * 23 / 100
        var out: [Double] = []
        out.reserveCapacity(rate * seconds * 2)
        for frame in 0..<(rate * seconds) {
            let note = frame / noteFrames
            let t = Double(frame % noteFrames) / Double(rate)
            let envelope = loudness[note % notes.count] * exp(-6 * t)
            let f = notes[note % notes.count]
            func voice(_ f: Double) -> Double {
                (sin(2 * .pi * f * t) + 0.5 * sin(4 * .pi * f * t) + 0.25 * sin(6 * .pi * f * t)) / 1.75
            }
            out.append(envelope * voice(f))
            out.append(0.7 * envelope * voice(2 * f))
        }
        return out
    }

    @Test func bigEndianReadsLikeLittleEndian() {
        let samples = Signals.fallingSteps(rate: 44100, frames: 44100, channels: 2, stepFrames: 4410)
        let little = meterMessages("volumemeter", samples: samples, format: .s16le, rate: 44100, channels: 2, framesPerBuffer: 1024)
        let big = meterMessages("volumemeter", samples: samples, format: .s16be, rate: 44100, channels: 2, framesPerBuffer: 1024)
        #expect(little.count == 10)
        #expect(little.map(\.values) == big.map(\.values))
    }

    /// `volume` is 10·log10 of the mean square in 16-bit units, computed here from the very
    /// samples pushed; a full-scale square wave gives about 90.3.
    @Test func appStyleVolume() {
        let rate = 48000
        let square = (0..<rate).map { n in (n / 24) % 2 == 0 ? 32767.0 / 32768 : -32767.0 / 32768 }
        let sine = Signals.sine(frequency: 1000, amplitude: 0.5, rate: rate, frames: rate)
        for (signal, approximately) in [(square, 90.31), (sine, 81.28)] {
            let messages = meterMessages("volumemeter", samples: signal, format: .s16le, rate: rate, channels: 1, framesPerBuffer: 480)
            #expect(messages.count == 10)
            for (k, message) in messages.enumerated() {
                let interval = signal[(k * 4800)..<((k + 1) * 4800)].map { ($0 * 32768).rounded() }
                let expected = 10 * log10(interval.map { $0 * $0 }.reduce(0, +) / Double(interval.count))
                let volume = message.double("volume") ?? .nan
                #expect(abs(volume - expected) <= 0.0001)
                #expect(abs(volume - approximately) <= 0.01)
            }
        }
    }
}
