// SPDX-License-Identifier: LGPL-2.1-or-later
/// The resampler's inner loops: dot products of one channel's contiguous input history with
/// one (or two) polyphase rows. `taps` is a multiple of 16 (see `ResamplingFilter.tapGranule`).
///
/// Compiled twice, like ResamplerLoops; each step is `accumulate` (FusedMultiplyAdd.swift).
///
/// An exact-row dot product is split in two: `lanes` leaves eight partial sums (one
/// multiply-add chain per lane) and `sums` adds up eight such sets at once, transposed, so a
/// group of outputs costs a few shuffles instead of a reduction each. A lone output is added
/// up by `horizontalSum`, which follows the same tree, so every output is the same bit for
/// bit however the reads cut the output into groups.
enum ResamplerDotProducts {
    /// The eight per-lane partial sums of a dot product.
    @inline(__always)
    static func lanes<T: TapCount>(_ input: UnsafePointer<Float>, _ row: UnsafePointer<Float>, _ taps: T) -> SIMD8<Float> {
        let x = UnsafeRawPointer(input), h = UnsafeRawPointer(row)
        var lanes = SIMD8<Float>()
        var offset = 0
        let end = taps.count &* 4
        while offset < end {
            accumulate(&lanes, x.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self),
                       h.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            offset &+= 32
        }
        return lanes
    }

    /// The same row against two channels' histories (stereo), loading the row once.
    @inline(__always)
    static func lanesStereo<T: TapCount>(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, _ row: UnsafePointer<Float>, _ taps: T
    ) -> (SIMD8<Float>, SIMD8<Float>) {
        let l = UnsafeRawPointer(left), r = UnsafeRawPointer(right), h = UnsafeRawPointer(row)
        var a = SIMD8<Float>(), b = SIMD8<Float>()
        var offset = 0
        let end = taps.count &* 4
        while offset < end {
            let coefficients = h.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            accumulate(&a, l.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self), coefficients)
            accumulate(&b, r.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self), coefficients)
            offset &+= 32
        }
        return (a, b)
    }

    /// Eight dot products from their lanes, in order, stored at `output`: [Σ lanes[0], …,
    /// Σ lanes[7]], each lane set added as ((0+4)+(2+6))+((1+5)+(3+7)) like `horizontalSum`.
    /// Three steps of half-vector swaps and 64- then 32-bit interleaves, 34 instructions for
    /// all eight with AVX. The lanes come through memory to a function of its own on purpose:
    /// where the optimizer could follow single lanes back into the multiply-add chains, it
    /// split those vectors up and the loops came out more than twice as long.
    @inline(never)
    static func sums(_ lanes: UnsafePointer<SIMD8<Float>>, into output: UnsafeMutableRawPointer) {
        // [a0+a4 … a3+a7 | e0+e4 … e3+e7], and the same for (b, f), (c, g), (d, h).
        let ae = halves(lanes[0], lanes[4]), bf = halves(lanes[1], lanes[5])
        let cg = halves(lanes[2], lanes[6]), dh = halves(lanes[3], lanes[7])
        // Lane pairs: [a(0+2) a(1+3) b(0+2) b(1+3) | the same for e, f], and c, d, g, h.
        let abef = pairs(ae, bf), cdgh = pairs(cg, dh)
        let total = SIMD8(abef[0], abef[2], cdgh[0], cdgh[2], abef[4], abef[6], cdgh[4], cdgh[6])
            + SIMD8(abef[1], abef[3], cdgh[1], cdgh[3], abef[5], abef[7], cdgh[5], cdgh[7])
        output.storeBytes(of: total, as: SIMD8<Float>.self)
    }

    /// [x0+x4, x1+x5, x2+x6, x3+x7, y0+y4, y1+y5, y2+y6, y3+y7].
    @inline(__always)
    private static func halves(_ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Float> {
        SIMD8(lowHalf: x.lowHalf, highHalf: y.lowHalf) + SIMD8(lowHalf: x.highHalf, highHalf: y.highHalf)
    }

    /// Lanes taken two at a time (as 64-bit units): [x01 + x23, y01 + y23, x45 + x67, y45 + y67].
    @inline(__always)
    private static func pairs(_ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Float> {
        let a = unsafeBitCast(x, to: SIMD4<Double>.self), b = unsafeBitCast(y, to: SIMD4<Double>.self)
        return unsafeBitCast(SIMD4(a[0], b[0], a[2], b[2]), to: SIMD8<Float>.self)
            + unsafeBitCast(SIMD4(a[1], b[1], a[3], b[3]), to: SIMD8<Float>.self)
    }

    /// Dot products with two adjacent rows of an interpolated table, sharing the input loads.
    @inline(__always)
    static func dot2(
        _ input: UnsafePointer<Float>, _ row0: UnsafePointer<Float>, _ row1: UnsafePointer<Float>, taps: Int
    ) -> (Float, Float) {
        let x = UnsafeRawPointer(input), h0 = UnsafeRawPointer(row0), h1 = UnsafeRawPointer(row1)
        var a = SIMD8<Float>(), b = SIMD8<Float>(), c = SIMD8<Float>(), d = SIMD8<Float>()
        var offset = 0
        let end = taps &* 4
        while offset < end {
            let x0 = x.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let x1 = x.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
            accumulate(&a, x0, h0.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            accumulate(&b, x1, h0.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self))
            accumulate(&c, x0, h1.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            accumulate(&d, x1, h1.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self))
            offset &+= 64
        }
        return (horizontalSum(a + b), horizontalSum(c + d))
    }

    /// Pairwise, so the reduction is three dependent adds instead of the seven of `sum()`:
    /// ((0+4)+(2+6))+((1+5)+(3+7)), the tree `sums` follows.
    @inline(__always)
    static func horizontalSum(_ v: SIMD8<Float>) -> Float {
        let four = v.lowHalf + v.highHalf
        let two = four.lowHalf + four.highHalf
        return two.x + two.y
    }
}

/// The number of taps of a filtering call: a constant for the common length, so the compiler
/// unrolls the dot products completely, or the run's own.
protocol TapCount {
    var count: Int { get }
}

/// Every upsampling filter's length (`ResamplingFilter.upsampling`).
struct SixtyFourTaps: TapCount {
    var count: Int { 64 }
}

struct RunTaps: TapCount {
    let count: Int
}
