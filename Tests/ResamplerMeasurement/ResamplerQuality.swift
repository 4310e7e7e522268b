// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels

/// The measurements behind the resampler's quality figures: a -6 dBFS sine resampled to
/// 48 kHz, edges trimmed, the tone fitted by least squares. ResamplerQualityTests holds them
/// against audioresample's figures; bench/ResamplerQualityReport prints the whole table.
public enum ResamplerQuality {
    public static let amplitude = 0.5

    /// Resamples a sine to 48 kHz and fits the tone in the output, edges trimmed.
    public static func measure(inputRate: Int, frequency: Double, seconds: Double = 0.25, fitAt: Double? = nil) -> SineFit {
        let output = resample(inputRate: inputRate, frequency: frequency, seconds: seconds)
        return SineFit(output, frequency: fitAt ?? frequency, sampleRate: 48000)
    }

    public static func resample(inputRate: Int, frequency: Double, seconds: Double, trim: Int = 600) -> [Float] {
        let input = ResamplerTestSupport.sine(
            frequency: frequency, rate: inputRate, frames: Int(Double(inputRate) * seconds), amplitude: amplitude)
        let output = ResamplerTestSupport.run(Resampler(inputRate: inputRate, outputRate: 48000, channels: 1), input)
        return Array(output[trim..<(output.count - trim)])
    }

    public static func level(_ fit: SineFit) -> Double { 20 * log10(fit.amplitude / amplitude) }

    /// Power of everything in the output relative to the input tone, for tones that should
    /// not come through at all.
    public static func leakage(inputRate: Int, frequency: Double, seconds: Double = 0.25) -> Double {
        let output = resample(inputRate: inputRate, frequency: frequency, seconds: seconds)
        let power = output.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(output.count)
        return 10 * log10(power / (amplitude * amplitude / 2))
    }

    /// Level of `frequency` in the output relative to the input tone, Hann-windowed so the
    /// strong tone next to a weak image does not leak into it.
    public static func image(inputRate: Int, tone: Double, seconds: Double = 0.25) -> Double {
        let output = resample(inputRate: inputRate, frequency: tone, seconds: seconds)
        var image = Double(inputRate) - tone
        if image > 24000 { image = 48000 - image }
        return 20 * log10(Goertzel.amplitude(of: image, in: output, sampleRate: 48000) / amplitude)
    }
}
