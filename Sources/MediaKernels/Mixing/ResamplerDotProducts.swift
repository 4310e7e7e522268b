/// The resampler's inner loops: dot products of one channel's contiguous input history with
/// one (or two) polyphase rows. `taps` is a multiple of 16 (see `ResamplingFilter.tapGranule`).
///
/// Products are added with `+=` on separate multiplies rather than `addProduct`: the package
/// builds for baseline x86-64, where a fused multiply-add on vectors is not an instruction
/// and would be emulated lane by lane.
enum ResamplerDotProducts {
    @inline(__always)
    static func dot(_ input: UnsafePointer<Float>, _ row: UnsafePointer<Float>, taps: Int) -> Float {
        let x = UnsafeRawPointer(input), h = UnsafeRawPointer(row)
        var low = SIMD8<Float>(), high = SIMD8<Float>()
        var offset = 0
        let end = taps &* 4
        while offset < end {
            low += x.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * h.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            high += x.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
                * h.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
            offset &+= 64
        }
        return horizontalSum(low + high)
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
            a += x0 * h0.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            b += x1 * h0.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
            c += x0 * h1.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            d += x1 * h1.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD8<Float>.self)
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
