// SPDX-License-Identifier: LGPL-2.1-or-later
/// The loudness meter's per-sample loops. Compiled twice, like ResamplerLoops: into
/// MediaKernels for baseline x86-64 and, through a symbolic link, into MediaKernelsAVX2 for
/// AVX2 + FMA; `LoudnessMeter` picks one by what the CPU has.
///
/// Both read interleaved Float samples as they are, `channels` per frame, so a chunk is
/// converted once and never deinterleaved.
#if !KERNELS_FMA
import MediaKernelsAVX2
#endif

package enum LoudnessLoops {
    /// Input samples the true-peak interpolator spans (see TruePeakInterpolator).
    package static let truePeakSpan = 12
    /// Coefficients per pair of mirrored input samples (see `truePeaks`).
    package static let truePeakPairTaps = 3

    /// Runs `frames` frames of one channel pair (lane 1 empty when `lone`) through the
    /// K-weighting filter and returns each lane's sum of squares. `samples` points at the
    /// pair's first channel in the first frame.
    package static func kWeightedSquares(_ samples: UnsafePointer<Float>, frames: Int, channels: Int, lone: Bool,
                                        _ filter: inout KWeightingLanes) -> SIMD2<Double> {
        var lanes = filter
        var squares = SIMD2<Double>()
        var frame = samples
        if lone {
            for _ in 0..<frames {
                lanes.step(SIMD2(Double(frame[0]), 0), &squares)
                frame += channels
            }
        } else {
            for _ in 0..<frames {
                lanes.step(SIMD2<Double>(UnsafeRawPointer(frame).loadUnaligned(as: SIMD2<Float>.self)), &squares)
                frame += channels
            }
        }
        filter = lanes
        return squares
    }

    /// Folds the magnitudes of `count` interleaved samples and of the three points
    /// interpolated after each into `best`, eight samples per vector: vector k (from `samples`)
    /// goes to best[k mod period]. The `truePeakSpan - 1` frames before `samples` must be
    /// readable (the history), and so must the samples up to the next multiple of 8 after
    /// `count` (ignored lanes).
    ///
    /// The interpolator's prototype is symmetric, so the inputs m frames back and
    /// (span − 1 − m) frames back meet the same coefficients mirrored: the middle phase is
    /// Σ taps[3m] · (x₋ₘ + x₋₍₁₁₋ₘ₎), and phases 1 and 3 are E ± O with
    /// E = Σ taps[3m + 1] · (x₋ₘ + x₋₍₁₁₋ₘ₎), O = Σ taps[3m + 2] · (x₋ₘ − x₋₍₁₁₋ₘ₎), m < 6.
    /// Half the multiply-adds and coefficient loads of the phases taken one by one, and
    /// dependency chains half as long; and the larger of |E + O| and |E − O| is |E| + |O|.
    package static func truePeaks(_ samples: UnsafePointer<Float>, count: Int, channels: Int,
                                  taps: UnsafePointer<SIMD8<Float>>, best: UnsafeMutablePointer<SIMD8<Float>>,
                                  period: Int) {
        let raw = UnsafeRawPointer(samples)
        let frameBytes = channels &* 4
        var n = 0, slot = 0
        // Pointer steps, not indices: with indices the compiler split the vectors in halves.
        // Two vectors per step sharing the coefficient loads measured slower (1.03 against
        // 0.67 µs per 10 ms of stereo).
        while n < count {
            var middle = SIMD8<Float>(), even = SIMD8<Float>(), odd = SIMD8<Float>()
            let x0 = raw.loadUnaligned(fromByteOffset: n &* 4, as: SIMD8<Float>.self)
            var near = raw + n &* 4
            var far = near - (truePeakSpan &- 1) &* frameBytes
            var h = taps
            for _ in 0..<(truePeakSpan / 2) {
                let a = near.loadUnaligned(as: SIMD8<Float>.self), b = far.loadUnaligned(as: SIMD8<Float>.self)
                let sum = a + b
                accumulate(&middle, h[0], sum)
                accumulate(&even, h[1], sum)
                accumulate(&odd, h[2], a - b)
                near -= frameBytes
                far += frameBytes
                h += truePeakPairTaps
            }
            var peak = magnitude(x0)
            raise(&peak, magnitude(middle))
            raise(&peak, magnitude(even + odd))
            raise(&peak, magnitude(even - odd))
            if count &- n < 8 {
                peak.replace(with: 0, where: SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .>= Int32(count &- n))
            }
            raise(&best[slot], peak)
            slot = slot &+ 1 == period ? 0 : slot &+ 1
            n &+= 8
        }
    }

    /// Lane-wise maximum of non-negative values (a masked select: `pointwiseMax` on Float
    /// vectors goes lane by lane on baseline x86-64).
    @inline(__always)
    private static func raise(_ best: inout SIMD8<Float>, _ x: SIMD8<Float>) {
        best.replace(with: x, where: x .> best)
    }

    @inline(__always)
    private static func magnitude(_ x: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }
}

extension KWeightingLanes {
    /// One frame through both sections; adds the output's square to `squares`.
    @inline(__always)
    mutating func step(_ x: SIMD2<Double>, _ squares: inout SIMD2<Double>) {
        var y = s1
        accumulate(&y, b0, x)
        Self.advance(&s1, &s2, input: x, c1, c2, minusA1, minusA2)
        let z = y + h1
        Self.advance(&h1, &h2, input: y, highC1, highC2, highMinusA1, highMinusA2)
        accumulate(&squares, z, z)
    }

    /// One section's state after `input`: first' = −a1·first + second + c1·input,
    /// second' = −a2·first + c2·input.
    @inline(__always)
    private static func advance(_ first: inout SIMD2<Double>, _ second: inout SIMD2<Double>, input: SIMD2<Double>,
                                _ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ minusA1: SIMD2<Double>,
                                _ minusA2: SIMD2<Double>) {
        var nextFirst = second
        accumulate(&nextFirst, c1, input)
        accumulate(&nextFirst, minusA1, first)
        var nextSecond = c2 * input
        accumulate(&nextSecond, minusA2, first)
        first = nextFirst
        second = nextSecond
    }
}
