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
    }

    /// A sine at a quarter of the rate sampled 45° off its crests: every sample sits at
    /// 0.707 (-3.01 dBFS) while the waveform between them reaches 1.0 (0 dBTP).
    @Test func truePeakSeesBetweenSamples() {
        let samples = Signals.sine(frequency: 12000, amplitude: 1.0, rate: 48000, frames: 48000, phase: .pi / 4)
        let messages = meterMessages("volumemeter loudness=true", samples: samples, format: .f32le, rate: 48000,
                                     channels: 1, framesPerBuffer: 1000)
        #expect(messages.count == 10)
        for message in messages {
            #expect(abs(message.doubles("peak")[0] - -3.0103) <= 0.01)
            #expect(abs(message.doubles("true-peak")[0]) <= 0.1)
        }
    }
}

/// ffmpeg's per-frame metadata print: `frame:N pts:P pts_time:T` then `lavfi.r128.X=v` lines.
enum FFmpegLoudness {
    struct Frame { var momentary = Double.nan, integrated = Double.nan }

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
                default: break
                }
            }
        }
        return frames
    }
}
