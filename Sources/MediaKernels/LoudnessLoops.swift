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
    /// Interpolated phases computed per input sample; coarser oversampling leaves the last
    /// phases' coefficients zero.
    package static let truePeakPhases = 3

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

    /// Folds the magnitudes of `count` interleaved samples and of the points interpolated
    /// after each (phase p of sample n: Σₘ taps[phases·m + p-1] · x[n − m·channels]) into
    /// `best`, eight samples per vector: vector k (from `samples`) goes to best[k mod period].
    /// The `truePeakSpan - 1` frames before `samples` must be readable (the history), and so
    /// must the samples up to the next multiple of 8 after `count` (ignored lanes).
    package static func truePeaks(_ samples: UnsafePointer<Float>, count: Int, channels: Int,
                                  taps: UnsafePointer<SIMD8<Float>>, best: UnsafeMutablePointer<SIMD8<Float>>,
                                  period: Int) {
        let raw = UnsafeRawPointer(samples)
        let frameBytes = channels &* 4
        var n = 0, slot = 0
        // Pointer steps, not indices: with indices the compiler split the vectors in halves.
        while n < count {
            var p1 = SIMD8<Float>(), p2 = SIMD8<Float>(), p3 = SIMD8<Float>()
            let x0 = raw.loadUnaligned(fromByteOffset: n &* 4, as: SIMD8<Float>.self)
            var x = raw + n &* 4
            var h = taps
            for _ in 0..<truePeakSpan {
                let v = x.loadUnaligned(as: SIMD8<Float>.self)
                accumulate(&p1, h[0], v)
                accumulate(&p2, h[1], v)
                accumulate(&p3, h[2], v)
                x -= frameBytes
                h += truePeakPhases
            }
            var peak = magnitude(x0)
            raise(&peak, magnitude(p1))
            raise(&peak, magnitude(p2))
            raise(&peak, magnitude(p3))
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
