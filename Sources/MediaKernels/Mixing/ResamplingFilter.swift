// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// The low-pass prototypes behind `Resampler`, one for raising the rate and one for
/// lowering it.
///
/// The bar is GStreamer 1.22's `audioresample` at its default quality (a 64-tap Kaiser
/// windowed sinc), measured on this machine (table in `Resampler`): −0.72 dB at 0.9·Nyquist,
/// images of tones up to 0.96·Nyquist rejected by 81–108 dB, −69 dB for the image of a tone at
/// 0.98·Nyquist, far images (the ones a 1 kHz tone makes) by 98–128 dB.
///
/// Upsampling: a 64-tap prototype designed for those figures rather than a windowed sinc,
/// whose window spends its length on the same attenuation everywhere. What the bar asks for
/// is uneven: a steep start of the stopband (−69 dB only 0.04·Nyquist past a passband edge
/// that may droop 0.7 dB), then ever deeper rejection further out. The prototype is
/// h(t) = Σ a_k cos(2πkt/64) on |t| < 32 input frames and 0 outside; being time-limited,
/// its spectrum at k/64 cycles per input frame is exactly 32·a_k (64·a_0 at 0), so the
/// coefficients are samples of the response, and the sincs of the time limit fill in between.
/// `upsamplingSpectrum` holds those samples: 1 through the passband, a transition of five,
/// then practically 0. They minimise the largest weighted error against a target on a
/// frequency grid (Lawson's iteratively reweighted least squares, `scripts/resampler_filter.py`
/// designs them and prints this literal), under h(±32) = 0. That constraint keeps the
/// prototype and its slope continuous at its ends, so far stopband lobes fall fast; it also
/// makes every polyphase row sum to the same gain, so normalising each row to unit gain adds
/// no phase-dependent ripple (without it a 1 kHz tone from 24 kHz left a −125 dB image at
/// 23 kHz). Response: within 0.00006 dB to 0.67·Nyquist and 0.33 dB to 0.9 (a +0.32 dB rise
/// around 0.78, −0.33 dB at 0.9), −79 dB from 1.02·Nyquist on, −105 dB from 1.04, −119 dB
/// from 1.2, −139 dB from 1.6. The same design at 48 taps ends 3.5 dB short of a target set at
/// audioresample's own figures; 64 taps meet that target with 11 dB to spare, and keep the
/// 32-frame lookahead the resampler had.
///
/// Downsampling needs a flat band up to 20 kHz at 48 kHz out and a stopband that starts
/// right at the output Nyquist (aliases land in band), which takes a longer, lower filter:
/// a sinc spanning 72 output periods shaped by a Kaiser window whose edge pedestal is removed
/// (subtracting the window's edge value and rescaling makes it continuous at its ends, so far
/// stopband lobes fall by 12 dB per octave instead of 6). It gives ≤ 0.001 dB to
/// 0.83·Nyquist, −0.36 dB at 0.875, ≥ 92.9 dB from 1.02·Nyquist on and ≥ 106.8 dB from 1.08 on.
struct ResamplingFilter: Sendable {
    enum Shape: Sendable {
        /// The prototype's spectrum sampled every 1/span cycle per input frame, from 0 Hz.
        case spectrum([Double])
        /// A sinc cut off at `cutoff` of the lower Nyquist frequency (about its −6 dB point),
        /// Kaiser window of shape `beta` with the pedestal removed.
        case kaiserSinc(cutoff: Double, beta: Double)
    }

    /// Filter length counted in periods of the lower of the two rates.
    let span: Int
    let shape: Shape

    static let upsampling = ResamplingFilter(span: 64, shape: .spectrum(upsamplingSpectrum))
    static let downsampling = ResamplingFilter(span: 72, shape: .kaiserSinc(cutoff: 0.925, beta: 11.0))

    /// Largest weighted error +0.91 dB against the target in `scripts/resampler_filter.py`.
    static let upsamplingSpectrum: [Double] = [
        0.99999999999999989, 1.00000662445351, 1.0000000091066326, 1.0000066065265116,
        1.0000000342733388, 1.0000065763515573, 1.0000000662124786, 1.00000654712822,
        1.0000000866952135, 1.0000065420014084, 1.0000000831288078, 1.0000065499754216,
        1.0000000438810157, 1.0000066021711871, 0.99999999395801498, 1.0000066276600412,
        1.0000000980450099, 1.0000062324274366, 1.0000011103744184, 1.0000039723618175,
        1.000005384125682, 1.0000015175082382, 0.99964205475353562, 0.9964711742224438,
        1.006347130652127, 1.0365029621492892, 1.0033543008865695, 0.96480283445109405,
        1.0337948696484405, 0.90420347681267876, 0.45636034245742713, 0.1038485329154248,
        0.0063551083475902699, -4.4639140325463899e-05, -5.3982894253313861e-06, 3.1962969801636953e-06,
        -6.607009970002216e-07, 2.1983811178431836e-07, -2.7200429950501232e-06, 5.0276161558752412e-08,
        2.6887432266941194e-07,
    ]

    /// Taps are counted in input frames and padded to whole 16-lane vectors, so the inner
    /// loop never needs a scalar tail.
    static let tapGranule = 16

    static func forRates(input: Int, output: Int) -> ResamplingFilter {
        output >= input ? upsampling : downsampling
    }

    /// Number of input frames one output frame reads. Downsampling stretches the filter by
    /// input/output so it stays `span` output periods long.
    func taps(inputRate: Int, outputRate: Int) -> Int {
        let stretch = max(1.0, Double(inputRate) / Double(outputRate))
        let wanted = Int((Double(span) * stretch).rounded(.up))
        return (wanted + Self.tapGranule - 1) / Self.tapGranule * Self.tapGranule
    }

    /// The impulse response for one rate pair, with its constants worked out once.
    /// `bandwidth` is output/input when downsampling and 1 otherwise.
    func prototype(taps: Int, bandwidth: Double) -> Prototype {
        switch shape {
        case .spectrum(let samples):
            .spectrum(samples: samples, period: Double(span))
        case .kaiserSinc(let cutoff, let beta):
            .kaiserSinc(half: Double(taps) / 2, cutoff: cutoff * bandwidth, beta: beta,
                        windowScale: 1 / (besselI0(beta) - 1))
        }
    }

    /// Values are left unnormalised: each polyphase row is scaled to unit DC gain afterwards.
    enum Prototype {
        case spectrum(samples: [Double], period: Double)
        case kaiserSinc(half: Double, cutoff: Double, beta: Double, windowScale: Double)

        /// Impulse response `t` input frames from the centre.
        func value(at t: Double) -> Double {
            switch self {
            case .spectrum(let samples, let period):
                guard abs(t) < period / 2 else { return 0 }
                return Self.cosineSeries(samples, at: 2 * Double.pi * t / period)
            case .kaiserSinc(let half, let cutoff, let beta, let windowScale):
                let x = t / half
                guard abs(x) < 1 else { return 0 }
                let arg = Double.pi * cutoff * t
                let sinc = arg == 0 ? 1 : sin(arg) / arg
                let window = (besselI0(beta * (1 - x * x).squareRoot()) - 1) * windowScale
                return cutoff * sinc * window
            }
        }

        /// s₀ + 2·Σ s_k·cos(kθ), by Clenshaw's recurrence (one cosine, then a multiply-add
        /// chain per term).
        private static func cosineSeries(_ s: [Double], at theta: Double) -> Double {
            let x = cos(theta)
            var b1 = 0.0, b2 = 0.0
            for k in stride(from: s.count - 1, through: 1, by: -1) {
                (b1, b2) = (2 * s[k] + 2 * x * b1 - b2, b1)
            }
            return s[0] + x * b1 - b2
        }
    }
}

/// Modified Bessel function of the first kind, order 0, by its power series: the terms
/// (x/2)^2k / (k!)^2 are summed until they no longer change the total, which for the β ≤ 16
/// used here takes under 40 terms.
func besselI0(_ x: Double) -> Double {
    let q = x * x / 4
    var term = 1.0
    var sum = 1.0
    var k = 1.0
    while term > sum * 1e-17 {
        term *= q / (k * k)
        sum += term
        k += 1
    }
    return sum
}
