// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import Testing

@Suite struct LoudnessTests {
    /// ITU-R BS.1770-4 tables 1 and 2 give the 48 kHz coefficients.
    @Test func kWeightingAt48kMatchesTheStandard() {
        let shelf = KWeighting.shelf(rate: 48000), highPass = KWeighting.highPass(rate: 48000)
        let expected = [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585]
        for (a, b) in zip([shelf.b0, shelf.b1, shelf.b2, shelf.a1, shelf.a2], expected) { #expect(abs(a - b) < 1e-8) }
        for (a, b) in zip([highPass.b0, highPass.b1, highPass.b2, highPass.a1, highPass.a2],
                          [1.0, -2.0, 1.0, -1.99004745483398, 0.99007225036621]) { #expect(abs(a - b) < 1e-8) }
    }

    static func stereoSine(dBFS: Double, seconds: Double, rate: Int = 48000, frequency: Double = 1000) -> [Float] {
        let amplitude = pow(10, dBFS / 20)
        let frames = Int(seconds * Double(rate))
        var out = [Float](repeating: 0, count: frames * 2)
        for n in 0..<frames {
            let v = Float(amplitude * sin(2 * .pi * frequency * Double(n) / Double(rate)))
            out[2 * n] = v
            out[2 * n + 1] = v
        }
        return out
    }

    func measure(_ parts: [[Float]], rate: Int = 48000) -> LoudnessMeter {
        let meter = LoudnessMeter(format: .f32le, rate: rate, roles: [.front, .front])
        for part in parts {
            part.withUnsafeBytes { meter.process($0.baseAddress!, frames: part.count / 2) }
        }
        return meter
    }

    /// EBU Tech 3341 cases 1 and 2: a stereo 1 kHz sine at -23 / -33 dBFS reads -23 / -33 LUFS.
    @Test(arguments: [(-23.0, 48000), (-33.0, 48000), (-23.0, 44100), (-23.0, 32000)])
    func steadySineReadsItsLevel(level: Double, rate: Int) {
        let meter = measure([Self.stereoSine(dBFS: level, seconds: 20, rate: rate)], rate: rate)
        #expect(abs(meter.momentary - level) <= 0.1)
        #expect(abs(meter.shortTerm - level) <= 0.1)
        #expect(abs(meter.integrated - level) <= 0.1)
    }

    /// EBU Tech 3341 cases 3 and 4: quieter passages fall under the relative (and absolute)
    /// gates, so the integrated loudness stays at the -23 LUFS of the main part.
    @Test func gatesIgnoreQuietPassages() {
        let case3 = measure([Self.stereoSine(dBFS: -36, seconds: 10), Self.stereoSine(dBFS: -23, seconds: 60),
                             Self.stereoSine(dBFS: -36, seconds: 10)])
        #expect(abs(case3.integrated - -23) <= 0.1)
        let case4 = measure([Self.stereoSine(dBFS: -72, seconds: 10), Self.stereoSine(dBFS: -36, seconds: 10),
                             Self.stereoSine(dBFS: -23, seconds: 60), Self.stereoSine(dBFS: -36, seconds: 10),
                             Self.stereoSine(dBFS: -72, seconds: 10)])
        #expect(abs(case4.integrated - -23) <= 0.1)
    }

    @Test func silenceStaysAtTheFloor() {
        let meter = measure([[Float](repeating: 0, count: 96000)])
        #expect(meter.momentary == Decibels.floor)
        #expect(meter.integrated == Decibels.floor)
        #expect([meter.truePeak(channel: 0), meter.truePeak(channel: 1)] == [0, 0])
    }

    /// 12 kHz at 48 kHz, 45° off the crests: samples at 0.707, the waveform at 1.0.
    @Test func truePeakOfAQuarterRateSine() {
        let interpolator = TruePeakInterpolator(rate: 48000, channels: 1)
        #expect(interpolator.factor == 4)
        let history = TruePeakInterpolator.spanSamples - 1
        func peak(startingFromSilence: Bool) -> Double {
            let samples = (0..<(history + 480 + TruePeakInterpolator.paddingSamples)).map { n in
                n < history && startingFromSilence ? 0 : Float(sin(Double.pi / 2 * Double(n - history) + .pi / 4))
            }
            var peak = 0.0
            samples.withUnsafeBufferPointer { interpolator.fold($0.baseAddress! + history, frames: 480, into: &peak) }
            return 20 * log10(peak)
        }
        #expect(abs(peak(startingFromSilence: false)) <= 0.1)
        // Switched on abruptly, the band-limited waveform really overshoots at the start.
        let onset = peak(startingFromSilence: true)
        #expect(onset >= 0 && onset <= 0.2, "\(onset) dBTP")
        #expect(TruePeakInterpolator(rate: 96000, channels: 1).factor == 2)
        #expect(TruePeakInterpolator(rate: 192000, channels: 1).factor == 1)
    }
}
