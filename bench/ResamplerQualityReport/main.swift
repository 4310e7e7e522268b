// SPDX-License-Identifier: LGPL-2.1-or-later
// The resampler's whole quality table: THD+N, passband flatness, images and leakage from every
// supported input rate to 48 kHz, with the signals and trimming of the audioresample
// measurement quoted in ResamplerQualityTests (2 s per tone, 4000 output frames trimmed each
// side). Prints; asserts nothing. `swift run -c release ResamplerQualityReport`.
import Foundation
import MediaKernels
import ResamplerMeasurement

typealias Q = ResamplerQuality

func fit(_ inputRate: Int, _ frequency: Double) -> SineFit {
    SineFit(Q.resample(inputRate: inputRate, frequency: frequency, seconds: 2, trim: 4000),
            frequency: frequency, sampleRate: 48000)
}

var lines: [String] = []
for rate in [44100, 32000, 24000] {
    let one = fit(rate, 1000)
    let high = Double(Int(0.8 * Double(rate) / 2) / 100 * 100)
    let top = min(20000, 0.9 * Double(rate) / 2)
    let deviations = (0..<24).map { i -> (Double, Double) in
        let f = (20 * pow(top / 20, Double(i) / 23) * 1000).rounded() / 1000
        return (f, Q.level(fit(rate, f)))
    }
    let worst = deviations.max { abs($0.1) < abs($1.1) }!
    lines.append(String(format: "%d->48000: THD+N 1k %.1f dB (gain %+.4f dB), THD+N %.0f Hz %.1f dB, flatness max |dev| %.4f dB at %.0f Hz",
                        rate, one.thdPlusNoiseDecibels, Q.level(one), high, fit(rate, high).thdPlusNoiseDecibels,
                        abs(worst.1), worst.0))
    for fraction in [0.9, 0.92, 0.94, 0.96, 0.98] {
        let f = (fraction * Double(rate) / 2).rounded()
        lines.append(String(format: "    tone %.0f (%.2f Nyq): pass %+.2f dB, image %.1f dB", f, fraction,
                            Q.level(fit(rate, f)), Q.image(inputRate: rate, tone: f, seconds: 2)))
    }
}
for (rate, frequency) in [(96000, 25000.0), (96000, 30000), (96000, 40000), (88200, 26000), (88200, 30000)] {
    lines.append(String(format: "%d->48000 tone %.0f: %.1f dB", rate, frequency,
                        Q.leakage(inputRate: rate, frequency: frequency, seconds: 2)))
}
for rate in [96000, 88200] {
    for f in [20000.0, 21000, 21600, 23040, 24000, 24480] {
        let level = f < 24000 ? Q.level(fit(rate, f))
            : Q.leakage(inputRate: rate, frequency: f, seconds: 2)
        lines.append(String(format: "%d->48000 tone %.0f: %+.3f dB", rate, f, level))
    }
}
print(lines.joined(separator: "\n"))
