// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit
import Foundation
import Testing

/// EBU R128 values against ffmpeg's ebur128 filter, an independent implementation, on the
/// same file.
@Suite struct VolumeMeterLoudnessTests {
    /// 12 s of stereo programme with three loudness levels and a quiet gap, so both gates of
    /// the integrated measurement matter: noise, a 1 kHz tone, a two-tone chord, near-silence.
    static func programme(rate: Int) -> [Double] {
        var state: UInt64 = 0x2545F4914F6CDD1D
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(Int64(bitPattern: state) >> 11) / Double(1 << 52)
        }
        var out: [Double] = []
        var smooth = 0.0
        for n in 0..<(12 * rate) {
            let t = Double(n) / Double(rate)
            let left: Double, right: Double
            switch t {
            case ..<3:
                smooth = 0.7 * smooth + 0.3 * noise()
                left = 0.3 * smooth; right = 0.25 * noise()
            case ..<6:
                left = 0.05 * sin(2 * .pi * 1000 * t); right = left
            case ..<9:
                left = 0.2 * sin(2 * .pi * 3000 * t) + 0.2 * sin(2 * .pi * 100 * t)
                right = 0.1 * sin(2 * .pi * 5000 * t)
            default:
                left = 0.001 * noise(); right = left
            }
            out += [left, right]
        }
        return out
    }

    @Test func matchesFFmpegEbur128() throws {
        let rate = 48000
        let directory = try temporaryDirectory("r128")
        let wav = directory.appendingPathComponent("programme.wav")
        let log = directory.appendingPathComponent("ffmpeg-r128.txt")
        try WaveFile.write(Self.programme(rate: rate), rate: rate, channels: 2, to: wav)

        let ffmpeg = try runCommand("/usr/bin/ffmpeg", ["-hide_banner", "-nostats", "-y", "-i", wav.path, "-af",
                                                        "ebur128=metadata=1,ametadata=mode=print:file=\(log.path)", "-f", "null", "-"])
        #expect(ffmpeg.status == 0, "\(ffmpeg.output)")
        let reference = try FFmpegLoudness.parse(String(contentsOf: log, encoding: .utf8))
        #expect(reference.count == 120)

        let run = try PipelineRun.run("filesrc location=\(wav.path) ! wavparse ! volumemeter name=m loudness=true ! fakesink")
        #expect(run.error == nil)
        let ours = run.messages(from: "m", named: "volumemeter")
        #expect(ours.count == 120)

        var compared = 0
        for message in ours {
            guard let ts = message.uint64("timestamp"), let frame = reference[ts / 1_000_000], ts >= 300_000_000 else { continue }
            let momentary = message.double("momentary") ?? .nan
            #expect(abs(momentary - frame.momentary) <= 0.2, "momentary at \(ts) ns: \(momentary) vs ffmpeg \(frame.momentary)")
            compared += 1
        }
        #expect(compared == 117)
        let integrated = ours.last?.double("integrated") ?? .nan
        let ffmpegIntegrated = reference[11_900]?.integrated ?? .nan
        #expect(abs(integrated - ffmpegIntegrated) <= 0.1, "integrated \(integrated) vs ffmpeg \(ffmpegIntegrated)")
        let range = ours.last?.double("loudness-range") ?? .nan
        let ffmpegRange = reference[11_900]?.range ?? .nan
        #expect(abs(range - ffmpegRange) <= 1, "loudness range \(range) vs ffmpeg \(ffmpegRange)")
    }

    /// The programme fields: maxima and loudness range build up, and the `reset` action
    /// signal starts them (and integrated loudness) again while levels go on.
    @Test func resetStartsAProgrammeAgain() throws {
        let rate = 48000
        let harness = Harness("volumemeter name=m loudness=true interval=1000000000",
                              caps: "audio/x-raw,format=F32LE,layout=interleaved,rate=\(rate),channels=2")
        var messages: [Fields] = []
        // 8 s at -20 dBFS then 8 s at -30 dBFS (Tech 3342 #1's tones), a reset, 8 s at -30 again.
        for (index, level) in [-20.0, -30.0, -30.0].enumerated() {
            if index == 2 {
                let meter = try #require(gst_bin_get_by_name(rc_bin(harness.element), "m"))
                rc_emit_action(meter, "reset")
                gst_object_unref(meter)
            }
            for second in 0..<8 {
                let samples = Signals.sine(frequency: 1000, amplitude: pow(10, level / 20), rate: rate, frames: rate, channels: 2)
                let pts = UInt64(index * 8 + second) * 1_000_000_000
                _ = harness.push(Signals.encode(samples, as: .f32le), pts: pts)
                harness.discardOutput()
                messages += harness.messages()
            }
        }
        harness.pushEOS()
        messages += harness.messages()
        let meters = messages.filter { $0.name == "volumemeter" }
        try #require(meters.count == 24)
        let beforeReset = meters[15], afterReset = meters[23]
        // A 1 kHz stereo sine at -20 dBFS reads -20 LUFS (EBU Tech 3341's calibration).
        #expect(abs((beforeReset.double("max-momentary") ?? .nan) - -20) <= 0.1)
        #expect(abs((beforeReset.double("max-short-term") ?? .nan) - -20) <= 0.1)
        #expect(abs((beforeReset.double("loudness-range") ?? .nan) - 10) <= 1, "\(beforeReset)")
        let truePeaksBefore = beforeReset.doubles("max-true-peak")
        #expect(truePeaksBefore.count == 2 && truePeaksBefore.allSatisfy { abs($0 - -20) <= 0.1 }, "\(truePeaksBefore)")
        // After the reset only -30 dBFS was measured: one level, no range.
        #expect(abs((afterReset.double("max-momentary") ?? .nan) - -30) <= 0.1, "\(afterReset)")
        #expect(abs((afterReset.double("max-short-term") ?? .nan) - -30) <= 0.1)
        #expect(abs((afterReset.double("integrated") ?? .nan) - -30) <= 0.1)
        #expect((afterReset.double("loudness-range") ?? .nan) <= 0.1)
        let truePeaksAfter = afterReset.doubles("max-true-peak")
        #expect(truePeaksAfter.count == 2 && truePeaksAfter.allSatisfy { abs($0 - -30) <= 0.1 }, "\(truePeaksAfter)")
        // The momentary window went on through the reset: the first interval after it is whole.
        #expect(abs((meters[16].double("momentary") ?? .nan) - -30) <= 0.1)
    }

    /// A sine at a quarter of the rate sampled 45° off its crests: every sample sits at
    /// 0.707 (-3.01 dBFS) while the waveform between them reaches 1.0 (0 dBTP).
    @Test func truePeakSeesBetweenSamples() {
        let samples = Signals.sine(frequency: 12000, amplitude: 1.0, rate: 48000, frames: 48000, phase: .pi / 4)
        let messages = meterMessages("volumemeter loudness=true", samples: samples, format: .f32le, rate: 48000,
                                     channels: 1, framesPerBuffer: 1000)
        #expect(messages.count == 10)
        for (index, message) in messages.enumerated() {
            #expect(abs(message.doubles("peak")[0] - -3.0103) <= 0.01)
            // The first interval holds the abrupt start, whose band-limited waveform
            // overshoots: up to the +0.2 dB EBU Tech 3341 allows a meter to over-read.
            let truePeak = message.doubles("true-peak")[0]
            #expect(truePeak >= -0.1 && truePeak <= (index == 0 ? 0.2 : 0.1), "interval \(index): \(truePeak) dBTP")
        }
    }
}

/// ffmpeg's per-frame metadata print: `frame:N pts:P pts_time:T` then `lavfi.r128.X=v` lines.
enum FFmpegLoudness {
    struct Frame { var momentary = Double.nan, integrated = Double.nan, range = Double.nan }

    /// Frames keyed by start time in milliseconds.
    static func parse(_ text: String) throws -> [UInt64: Frame] {
        var frames: [UInt64: Frame] = [:]
        var current: UInt64?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("frame:"), let t = line.split(separator: "pts_time:").last, let seconds = Double(t.trimmingCharacters(in: .whitespaces)) {
                current = UInt64((seconds * 1000).rounded())
                frames[current!] = Frame()
            } else if let key = current, let eq = line.firstIndex(of: "=") {
                let value = Double(line[line.index(after: eq)...]) ?? .nan
                switch line[..<eq] {
                case "lavfi.r128.M": frames[key]?.momentary = value
                case "lavfi.r128.I": frames[key]?.integrated = value
                case "lavfi.r128.LRA": frames[key]?.range = value
                default: break
                }
            }
        }
        return frames
    }
}
