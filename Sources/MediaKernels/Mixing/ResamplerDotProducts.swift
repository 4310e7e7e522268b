/// The resampler's inner loops: dot products of one channel's contiguous input history with
/// one (or two) polyphase rows. `taps` is a multiple of 16 (see `ResamplingFilter.tapGranule`).
///
/// Compiled twice, like ResamplerLoops; each step is `accumulate` (FusedMultiplyAdd.swift).
enum ResamplerDotProducts {
    @inline(__always)
    static func dot(_ input: UnsafePointer<Float>, _ row: UnsafePointer<Float>, taps: Int) -> Float {
        let x = UnsafeRawPointer(input), h = UnsafeRawPointer(row)
        var low = SIMD8<Float>(), high = SIMD8<Float>()
        var offset = 0
        let end = taps &* 4
        while offset < end {
            accumulate(&low, x.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self),
                       h.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            accumulate(&high, x.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self),
                       h.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self))
            offset &+= 64
        }
        return horizontalSum(low + high)
    }

    /// The same row against two channels' histories (stereo), loading the row once.
    @inline(__always)
    static func dotStereo(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, _ row: UnsafePointer<Float>, taps: Int
    ) -> (Float, Float) {
        let l = UnsafeRawPointer(left), r = UnsafeRawPointer(right), h = UnsafeRawPointer(row)
        var a = SIMD8<Float>(), b = SIMD8<Float>(), c = SIMD8<Float>(), d = SIMD8<Float>()
        var offset = 0
        let end = taps &* 4
        while offset < end {
            let h0 = h.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let h1 = h.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
            accumulate(&a, l.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self), h0)
            accumulate(&b, l.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self), h1)
            accumulate(&c, r.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self), h0)
            accumulate(&d, r.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self), h1)
            offset &+= 64
        }
        return (horizontalSum(a + b), horizontalSum(c + d))
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

    /// Pairwise, so the reduction is three dependent adds instead of the seven of `sum()`.
    @inline(__always)
    static func horizontalSum(_ v: SIMD8<Float>) -> Float {
        let four = v.lowHalf + v.highHalf
        let two = four.lowHalf + four.highHalf
        return two.x + two.y
    }
}
