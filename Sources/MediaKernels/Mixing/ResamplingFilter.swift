import Glibc

/// The low-pass prototype behind `Resampler`: a sinc cut off at a fraction of the lower
/// Nyquist frequency, shaped by a Kaiser window whose edge pedestal is removed.
///
/// Why these numbers. The bar is GStreamer 1.22's `audioresample` at its default quality,
/// measured on this machine (table in `Resampler`): −0.72 dB at 0.9·Nyquist, images of
/// tones up to 0.96·Nyquist rejected by 81–108 dB, far images (the ones a 1 kHz tone makes)
/// by 98–131 dB, and −69 dB for the image of a tone at 0.98·Nyquist. A windowed-sinc search
/// over span, cutoff, window and β (simulated, then checked here) found:
/// - 56 taps cannot keep the passband within 0.72 dB and reject images well enough at once;
/// - 64 taps (these) give −0.61 dB at 0.9·Nyquist, ≥ 90.7 dB from 1.04·Nyquist on and
///   ≥ 121 dB around 2·Nyquist, beating every figure above except the last: the transition
///   ends a little later, so tones between 0.96 and 1.0·Nyquist leave images of −49 dB
///   (0.98) to −75 dB (0.965) where audioresample's stay near −69…−86 dB;
/// - 72 taps could also beat that one, but then the far stopband lands ~5 dB short of the
///   (lucky, at a sidelobe null) −128 dB 1 kHz figure at 32 kHz. Content above 0.96·Nyquist
///   is rare and mostly removed by the source's own anti-alias filter, so 64 taps it is.
/// Downsampling needs a flat band up to 20 kHz at 48 kHz out and a stopband that starts
/// right at the output Nyquist (aliases land in band), which takes a longer, lower filter:
/// 72 output periods gives ≤ 0.001 dB to 0.83·Nyquist, −0.36 dB at 0.875, ≥ 92.9 dB from
/// 1.02·Nyquist on and ≥ 106.8 dB from 1.08 on.
///
/// Removing the Kaiser pedestal (subtracting the window's edge value and rescaling) makes
/// the window continuous at its ends, so far stopband lobes fall by 12 dB per octave
/// instead of 6; that buys ~8 dB on far images for ~4 dB less right after the transition.
struct ResamplingFilter: Sendable {
    /// Filter length counted in periods of the lower of the two rates.
    let span: Int
    /// Cutoff of the sinc (about the −6 dB point) as a fraction of the lower Nyquist frequency.
    let cutoff: Double
    /// Kaiser shape parameter.
    let beta: Double

    static let upsampling = ResamplingFilter(span: 64, cutoff: 0.945, beta: 9.5)
    static let downsampling = ResamplingFilter(span: 72, cutoff: 0.925, beta: 11.0)

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
    func prototype(taps: Int, bandwidth: Double) -> Prototype {
        Prototype(half: Double(taps) / 2, cutoff: cutoff * bandwidth, beta: beta,
                  windowScale: 1 / (besselI0(beta) - 1))
    }

    /// `bandwidth` is output/input when downsampling and 1 otherwise. Values are left
    /// unnormalised: each polyphase row is scaled to unit DC gain afterwards.
    struct Prototype {
        let half: Double
        let cutoff: Double
        let beta: Double
        let windowScale: Double

        /// Impulse response `t` input frames from the centre.
        func value(at t: Double) -> Double {
            let x = t / half
            guard abs(x) < 1 else { return 0 }
            let arg = Double.pi * cutoff * t
            let sinc = arg == 0 ? 1 : sin(arg) / arg
            let window = (besselI0(beta * (1 - x * x).squareRoot()) - 1) * windowScale
            return cutoff * sinc * window
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
