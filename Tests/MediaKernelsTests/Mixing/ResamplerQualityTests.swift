// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import MediaKernels
import Testing

/// Quality against GStreamer 1.22 `audioresample` at its defaults (Kaiser, quality 4), whose
/// figures were measured on this machine with the same signals: −6 dBFS F32 sines from
/// `audiotestsrc`, resampled to 48 kHz, edges trimmed, tone fitted by least squares (see
/// `Resampler` for the commands). Each bound below beats the GStreamer figure in its comment.
@Suite struct ResamplerQualityTests {
    static let amplitude = 0.5

    /// Resamples a sine to 48 kHz and fits the tone in the output, edges trimmed.
    static func measure(inputRate: Int, frequency: Double, seconds: Double = 0.25, fitAt: Double? = nil) -> SineFit {
        let output = resample(inputRate: inputRate, frequency: frequency, seconds: seconds)
        return SineFit(output, frequency: fitAt ?? frequency, sampleRate: 48000)
    }

    static func resample(inputRate: Int, frequency: Double, seconds: Double, trim: Int = 600) -> [Float] {
        let input = ResamplerTestSupport.sine(
            frequency: frequency, rate: inputRate, frames: Int(Double(inputRate) * seconds), amplitude: amplitude)
        let output = ResamplerTestSupport.run(Resampler(inputRate: inputRate, outputRate: 48000, channels: 1), input)
        return Array(output[trim..<(output.count - trim)])
    }

    static func level(_ fit: SineFit) -> Double { 20 * log10(fit.amplitude / amplitude) }

    /// Power of everything in the output relative to the input tone, for tones that should
    /// not come through at all.
    static func leakage(inputRate: Int, frequency: Double, seconds: Double = 0.25) -> Double {
        let output = resample(inputRate: inputRate, frequency: frequency, seconds: seconds)
        let power = output.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(output.count)
        return 10 * log10(power / (amplitude * amplitude / 2))
    }

    // audioresample: 44.1k −103.8 dB, 32k −128.4 dB, 24k −97.6 dB.
    @Test(arguments: [(44100, -112.0), (32000, -130.0), (24000, -108.0)])
    func oneKilohertzTHDPlusNoise(inputRate: Int, bound: Double) {
        let fit = Self.measure(inputRate: inputRate, frequency: 1000)
        #expect(fit.thdPlusNoiseDecibels <= bound, "\(inputRate): \(fit.thdPlusNoiseDecibels) dB")
        #expect(abs(Self.level(fit)) <= 0.01, "\(inputRate): \(Self.level(fit)) dB")
    }

    // audioresample at 0.8·Nyquist: 44.1k (17.6 kHz) −83.0 dB, 32k (12.8 kHz) −80.2 dB,
    // 24k (9.6 kHz) −98.6 dB.
    @Test(arguments: [(44100, 17600.0, -105.0), (32000, 12800.0, -100.0), (24000, 9600.0, -102.0)])
    func highToneTHDPlusNoise(inputRate: Int, frequency: Double, bound: Double) {
        let fit = Self.measure(inputRate: inputRate, frequency: frequency)
        #expect(fit.thdPlusNoiseDecibels <= bound, "\(inputRate) \(frequency) Hz: \(fit.thdPlusNoiseDecibels) dB")
    }

    // audioresample: −0.72 dB at 0.9·Nyquist, ≤ 0.0006 dB up to 0.67·Nyquist.
    @Test(arguments: [44100, 32000, 24000])
    func passbandIsFlat(inputRate: Int) {
        let top = min(20000, 0.9 * Double(inputRate) / 2)
        let frequencies = (0..<8).map { 20 * pow(top / 20, Double($0) / 7) }
        for frequency in frequencies {
            let level = Self.level(Self.measure(inputRate: inputRate, frequency: frequency, seconds: 0.15))
            let bound = frequency <= 0.67 * Double(inputRate) / 2 ? 0.001 : 0.65
            #expect(abs(level) <= bound, "\(inputRate) \(frequency) Hz: \(level) dB")
        }
    }

    /// Level of `frequency` in the output relative to the input tone, Hann-windowed so the
    /// strong tone next to a weak image does not leak into it.
    static func image(inputRate: Int, tone: Double, seconds: Double = 0.25) -> Double {
        let output = resample(inputRate: inputRate, frequency: tone, seconds: seconds)
        var image = Double(inputRate) - tone
        if image > 24000 { image = 48000 - image }
        return 20 * log10(Goertzel.amplitude(of: image, in: output, sampleRate: 48000) / amplitude)
    }

    // audioresample, images of tones at 0.9 / 0.94 / 0.96·Nyquist over 44.1k, 32k, 24k:
    // −80.6…−98.6 dB, −87.6…−90.9 dB, −84.7…−89.8 dB.
    @Test(arguments: [44100, 32000, 24000])
    func imagesOfHighTonesAreRejected(inputRate: Int) {
        for fraction in [0.9, 0.94, 0.96] {
            let tone = fraction * Double(inputRate) / 2
            let level = Self.image(inputRate: inputRate, tone: tone)
            #expect(level <= -89, "\(inputRate) tone \(tone) Hz: image \(level) dB")
        }
    }

    /// Tones in the top 2 % of the input band: audioresample leaves the image of a tone at
    /// 0.98·Nyquist (at 1.02·Nyquist) at −68.8 dB (−68.7 dB from 32 kHz, −68.9 dB from 24 kHz).
    @Test(arguments: [44100, 32000, 24000])
    func imageOfAToneJustBelowNyquistIsRejected(inputRate: Int) {
        let level = Self.image(inputRate: inputRate, tone: 0.98 * Double(inputRate) / 2)
        #expect(level <= -68.8, "\(inputRate): \(level) dB")
    }

    // audioresample 96k→48k: 25 kHz −89.4 dB, 30 kHz −96.8 dB, 40 kHz −103.7 dB;
    // 88.2k→48k: 26 kHz −106.1 dB, 30 kHz −103.1 dB.
    @Test(arguments: [(96000, 25000.0, -92.0), (96000, 30000.0, -100.0), (96000, 40000.0, -106.0),
                      (88200, 26000.0, -107.0), (88200, 30000.0, -106.0)])
    func contentAboveTheOutputNyquistIsRejected(inputRate: Int, frequency: Double, bound: Double) {
        let leak = Self.leakage(inputRate: inputRate, frequency: frequency, seconds: 0.1)
        #expect(leak <= bound, "\(inputRate) \(frequency) Hz: \(leak) dB")
    }

    // audioresample 96k→48k: flat to 20 kHz, −0.45 dB at 21 kHz.
    @Test func downsamplingPassbandIsFlat() {
        for (frequency, bound) in [(1000.0, 0.001), (10000, 0.001), (20000, 0.01), (21000, 0.45)] {
            let level = Self.level(Self.measure(inputRate: 96000, frequency: frequency, seconds: 0.1))
            #expect(abs(level) <= bound, "96k \(frequency) Hz: \(level) dB")
        }
    }
}

/// The full comparison table, same signals and trimming as the GStreamer measurement
/// (2 s per tone, 4000 output frames trimmed each side). Prints only; run it with
/// REPLAYCAST_REPORT=1, preferably in a release build.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REPLAYCAST_REPORT"] == "1"))
struct ResamplerQualityReport {
    typealias Q = ResamplerQualityTests

    static func fit(_ inputRate: Int, _ frequency: Double, at: Double? = nil) -> SineFit {
        SineFit(Q.resample(inputRate: inputRate, frequency: frequency, seconds: 2, trim: 4000),
                frequency: at ?? frequency, sampleRate: 48000)
    }

    @Test func printTable() {
        var lines: [String] = []
        for rate in [44100, 32000, 24000] {
            let one = Self.fit(rate, 1000)
            let high = Double(Int(0.8 * Double(rate) / 2) / 100 * 100)
            let top = min(20000, 0.9 * Double(rate) / 2)
            let deviations = (0..<24).map { i -> (Double, Double) in
                let f = (20 * pow(top / 20, Double(i) / 23) * 1000).rounded() / 1000
                return (f, Q.level(Self.fit(rate, f)))
            }
            let worst = deviations.max { abs($0.1) < abs($1.1) }!
            lines.append(String(format: "%d->48000: THD+N 1k %.1f dB (gain %+.4f dB), THD+N %.0f Hz %.1f dB, flatness max |dev| %.4f dB at %.0f Hz",
                                rate, one.thdPlusNoiseDecibels, Q.level(one), high, Self.fit(rate, high).thdPlusNoiseDecibels,
                                abs(worst.1), worst.0))
            for fraction in [0.9, 0.92, 0.94, 0.96, 0.98] {
                let f = (fraction * Double(rate) / 2).rounded()
                lines.append(String(format: "    tone %.0f (%.2f Nyq): pass %+.2f dB, image %.1f dB", f, fraction,
                                    Q.level(Self.fit(rate, f)), Q.image(inputRate: rate, tone: f, seconds: 2)))
            }
        }
        for (rate, frequency) in [(96000, 25000.0), (96000, 30000), (96000, 40000), (88200, 26000), (88200, 30000)] {
            lines.append(String(format: "%d->48000 tone %.0f: %.1f dB", rate, frequency,
                                Q.leakage(inputRate: rate, frequency: frequency, seconds: 2)))
        }
        for rate in [96000, 88200] {
            for f in [20000.0, 21000, 21600, 23040, 24000, 24480] {
                let level = f < 24000 ? Q.level(Self.fit(rate, f))
                    : Q.leakage(inputRate: rate, frequency: f, seconds: 2)
                lines.append(String(format: "%d->48000 tone %.0f: %+.3f dB", rate, f, level))
            }
        }
        print(lines.joined(separator: "\n"))
    }
}
