// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import MediaKernelsAVX2

/// Second-order IIR section, a0 normalised to 1.
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double
}

/// The ITU-R BS.1770-4 K-weighting pre-filter at any sample rate: a high-shelf (head
/// acoustics) followed by the RLB high-pass. The standard tabulates the 48 kHz coefficients
/// only; these are the analog prototypes that reproduce them (the published parameters used
/// by libebur128 and ffmpeg), mapped with the bilinear transform.
public enum KWeighting {
    public static func shelf(rate: Double) -> BiquadCoefficients {
        let f0 = 1681.974450955533, gainDB = 3.999843853973347, q = 0.7071752369554196
        let k = tan(Double.pi * f0 / rate)
        let vh = pow(10, gainDB / 20)
        let vb = pow(vh, 0.4996667741545416)
        let a0 = 1 + k / q + k * k
        return BiquadCoefficients(
            b0: (vh + vb * k / q + k * k) / a0,
            b1: 2 * (k * k - vh) / a0,
            b2: (vh - vb * k / q + k * k) / a0,
            a1: 2 * (k * k - 1) / a0,
            a2: (1 - k / q + k * k) / a0)
    }

    public static func highPass(rate: Double) -> BiquadCoefficients {
        let f0 = 38.13547087602444, q = 0.5003270373238773
        let k = tan(Double.pi * f0 / rate)
        let a0 = 1 + k / q + k * k
        return BiquadCoefficients(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }

    /// BS.1770 channel weights by role: LFE is excluded, surrounds count +1.5 dB.
    public enum ChannelRole: Sendable { case front, surround, lowFrequency }

    public static func weight(_ role: ChannelRole) -> Double {
        switch role {
        case .front: 1.0
        case .surround: 1.41
        case .lowFrequency: 0.0
        }
    }
}

extension KWeightingLanes {
    /// Both sections at `rate`, state at rest.
    package init(rate: Double) {
        let shelf = KWeighting.shelf(rate: rate), highPass = KWeighting.highPass(rate: rate)
        precondition(highPass.b0 == 1 && highPass.b1 == -2 && highPass.b2 == 1)
        self.init(shelf: (shelf.b0, shelf.b1, shelf.b2, shelf.a1, shelf.a2), highPass: (highPass.a1, highPass.a2))
    }
}
