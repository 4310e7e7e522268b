// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import Testing

@Suite struct ToneAnalysisTests {
    static func tone(_ frequency: Double, amplitude: Double, phase: Double = 0, rate: Double, frames: Int,
                     channels: Int = 1, channel: Int = 0) -> [Float] {
        var out = [Float](repeating: 0.125, count: frames * channels)
        for n in 0..<frames {
            out[n * channels + channel] = Float(amplitude * sin(2 * Double.pi * frequency * Double(n) / rate + phase))
        }
        return out
    }

    @Test(arguments: [20.0, 997.0, 1000.0, 15_000.0, 23_000.0])
    func goertzelReadsAToneAtAnyFrequency(frequency: Double) {
        let signal = Self.tone(frequency, amplitude: 0.3, rate: 48000, frames: 48000, channels: 2, channel: 1)
        let amplitude = Goertzel.amplitude(of: frequency, in: signal, channel: 1, channels: 2, sampleRate: 48000)
        #expect(abs(20 * log10(amplitude / 0.3)) < 0.001)
        // The other channel holds only a constant.
        #expect(Goertzel.amplitude(of: frequency, in: signal, channel: 0, channels: 2, sampleRate: 48000) < 1e-6)
    }

    @Test func goertzelSeparatesNearbyTones() {
        let a = Self.tone(1000, amplitude: 0.5, rate: 48000, frames: 24000)
        let b = Self.tone(1100, amplitude: 0.001, rate: 48000, frames: 24000)
        let mix = zip(a, b).map { $0 + $1 }
        #expect(abs(Goertzel.amplitude(of: 1100, in: mix, sampleRate: 48000) / 0.001 - 1) < 0.01)
        // Whole cycles need no window.
        #expect(abs(Goertzel.amplitude(of: 1000, in: a, sampleRate: 48000, window: .rectangular) / 0.5 - 1) < 1e-6)
    }

    @Test func sineFitRecoversToneAndResidual() {
        let clean = Self.tone(1234.5, amplitude: 0.4, phase: 0.7, rate: 44100, frames: 20000)
        let fit = SineFit(clean.map { $0 + 0.01 }, frequency: 1234.5, sampleRate: 44100)
        #expect(abs(fit.amplitude - 0.4) < 1e-6)
        #expect(abs(fit.phase - 0.7) < 1e-5)
        #expect(abs(fit.offset - 0.01) < 1e-6)
        #expect(fit.thdPlusNoiseDecibels < -130)
        // A −60 dB second harmonic is what is left over.
        let harmonic = Self.tone(2469, amplitude: 0.0004, rate: 44100, frames: 20000)
        let distorted = SineFit(zip(clean, harmonic).map { $0 + $1 }, frequency: 1234.5, sampleRate: 44100)
        #expect(abs(distorted.thdPlusNoiseDecibels - -60) < 0.05)
    }
}
