// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

/// dualmixer with known signals: levels of both tones, purity, gains and mix modes.
@Suite struct DualMixerSignalTests {
    /// App 1 kHz at 44.1 kHz mono S16BE, mic 440 Hz at 32 kHz mono S16LE.
    static let inputs = "audiotestsrc freq=1000 volume=0.5 num-buffers=100 ! audio/x-raw,format=S16BE,rate=44100,channels=1 ! m.app "
        + "audiotestsrc freq=440 volume=0.25 num-buffers=100 ! audio/x-raw,format=S16LE,rate=32000,channels=1 ! m.mic"

    @Test func bothTonesArriveAtTheirLevelsAndNothingElse() throws {
        let capture = try MixerCapture.capture(Self.inputs)
        #expect(capture.run.error == nil && capture.run.reachedEOS)
        // 100 buffers of 1024 frames at 32 kHz = 3.2 s (the mic ends later than the app's 2.32 s).
        let steady = 4800..<(4800 + 96000)
        for channel in 0..<2 {
            let app = 20 * log10(capture.amplitude(of: 1000, channel: channel, in: steady))
            let mic = 20 * log10(capture.amplitude(of: 440, channel: channel, in: steady))
            #expect(abs(app - 20 * log10(0.5)) <= 0.1, "app tone \(app) dB")
            #expect(abs(mic - 20 * log10(0.25)) <= 0.1, "mic tone \(mic) dB")
        }
        let residual = TwoToneFit(capture.samples, frames: steady, frequencies: [1000, 440])
        #expect(residual.thdPlusNoiseDecibels <= -80, "THD+N \(residual.thdPlusNoiseDecibels) dB")
    }

    @Test func padVolumeAndMuteApplyPerInput() throws {
        let quieter = try MixerCapture.capture(Self.inputs, mixer: "app::volume=0.5 mic::mute=true")
        let steady = 4800..<(4800 + 48000)
        #expect(abs(20 * log10(quieter.amplitude(of: 1000, in: steady)) - 20 * log10(0.25)) <= 0.1)
        #expect(quieter.amplitude(of: 440, in: steady) < 1e-5)
    }

    @Test func averageModeHalvesTheSum() throws {
        let sum = try MixerCapture.capture(Self.inputs)
        let average = try MixerCapture.capture(Self.inputs, mixer: "mix-mode=average")
        let steady = 4800..<(4800 + 48000)
        for frequency in [1000.0, 440] {
            let ratio = 20 * log10(average.amplitude(of: frequency, in: steady) / sum.amplitude(of: frequency, in: steady))
            #expect(abs(ratio - -6.0206) <= 0.01, "\(frequency) Hz: \(ratio) dB")
        }
    }

    /// Two full-scale tones sum to twice full scale: the limiter keeps it inside, no wrap.
    @Test func sumIsLimitedNotWrapped() throws {
        let loud = "audiotestsrc freq=1000 volume=1.0 num-buffers=20 ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! m.app "
            + "audiotestsrc freq=1000 volume=1.0 num-buffers=20 ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! m.mic"
        let capture = try MixerCapture.capture(loud)
        let peak = capture.samples.map { abs($0) }.max() ?? 0
        #expect(peak < 1 && peak > 0.89)
        // No wrap: every sample has the sign of the input sine.
        let wrapped = (0..<capture.frames).filter { frame in
            let expected = sin(2 * Double.pi * 1000 * Double(frame) / 48000)
            return abs(expected) > 0.5 && Double(capture.samples[2 * frame]) * expected < 0
        }
        #expect(wrapped.isEmpty)
    }

    /// Nothing downstream asks for a format: the caps dualmixer negotiates are 16-bit.
    @Test func sixteenBitOutputByDefault() throws {
        var negotiated = ""
        let run = try PipelineRun.run("dualmixer name=m ! fakesink " + Self.inputs, timeout: 60, finished: { pipeline in
            let mixer = gst_bin_get_by_name(rc_bin(pipeline), "m")!
            defer { gst_object_unref(mixer) }
            let source = gst_element_get_static_pad(mixer, "src")!
            defer { gst_object_unref(source) }
            guard let caps = gst_pad_get_current_caps(source) else { return }
            defer { gst_caps_unref(caps) }
            let text = gst_caps_to_string(caps)!
            defer { g_free(text) }
            negotiated = String(cString: text)
        })
        #expect(run.error == nil && run.reachedEOS)
        #expect(negotiated.hasPrefix("audio/x-raw, format=(string)S16LE, layout=(string)interleaved, rate=(int)48000, channels=(int)2"),
                "negotiated: \(negotiated)")
    }

    /// Ten seconds wrap each input's timeline ring (3 s) several times. 10 ms output buffers
    /// never straddle the wrap (the ring holds a whole number of them); 7 ms ones do, and
    /// are read in two parts: the mix must come out the same, sample for sample.
    @Test func outputBuffersAcrossTheTimelineWrapAreWhole() throws {
        let tone = "audiotestsrc freq=1000 volume=0.5 num-buffers=1000 samplesperbuffer=480 "
            + "! audio/x-raw,format=S16LE,rate=48000,channels=2 ! m.app"
        let aligned = try MixerCapture.capture(tone)
        let straddling = try MixerCapture.capture(tone, mixer: "output-buffer-duration=7000000")
        #expect(aligned.run.reachedEOS && straddling.run.reachedEOS)
        #expect(aligned.frames == 480_000 && straddling.frames == 480_000)
        #expect(zip(aligned.samples, straddling.samples).allSatisfy { $0.bitPattern == $1.bitPattern })
    }
}

/// Least-squares fit of sines at known frequencies (plus DC); what remains is THD+N.
struct TwoToneFit {
    let thdPlusNoiseDecibels: Double

    init(_ samples: [Float], frames: Range<Int>, frequencies: [Double], channel: Int = 0) {
        let count = 2 * frequencies.count + 1
        var normal = [[Double]](repeating: [Double](repeating: 0, count: count + 1), count: count)
        func basis(_ n: Int) -> [Double] {
            var row = [1.0]
            for f in frequencies {
                let phase = 2 * Double.pi * f * Double(n) / 48000
                row += [cos(phase), sin(phase)]
            }
            return row
        }
        for n in frames {
            let row = basis(n), y = Double(samples[2 * n + channel])
            for i in 0..<count {
                for j in 0..<count { normal[i][j] += row[i] * row[j] }
                normal[i][count] += row[i] * y
            }
        }
        for pivot in 0..<count {
            for r in (pivot + 1)..<count {
                let factor = normal[r][pivot] / normal[pivot][pivot]
                for c in pivot...count { normal[r][c] -= factor * normal[pivot][c] }
            }
        }
        var coefficients = [Double](repeating: 0, count: count)
        for i in stride(from: count - 1, through: 0, by: -1) {
            var value = normal[i][count]
            for j in (i + 1)..<count { value -= normal[i][j] * coefficients[j] }
            coefficients[i] = value / normal[i][i]
        }
        var residual = 0.0, signal = 0.0
        for n in frames {
            let row = basis(n), y = Double(samples[2 * n + channel])
            let fitted = zip(row, coefficients).map(*).reduce(0, +)
            residual += (y - fitted) * (y - fitted)
            signal += (fitted - coefficients[0]) * (fitted - coefficients[0])
        }
        thdPlusNoiseDecibels = 10 * log10(residual / signal)
    }
}
