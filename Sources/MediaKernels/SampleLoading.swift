/// Reads raw interleaved samples as Float, 16 at a time or one at a time, in raw sample
/// units (no scaling: callers scale once per result, not once per sample).
/// Generic kernels are specialised per format when the format is chosen (once per caps).
protocol SampleLoading {
    static var bytesPerSample: Int { get }
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float>
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double
}

enum S16LELoad: SampleLoading {
    static var bytesPerSample: Int { 2 }
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        SIMD16<Float>(base.loadUnaligned(fromByteOffset: sample &* 2, as: SIMD16<Int16>.self))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float {
        Float(Int16(littleEndian: base.loadUnaligned(fromByteOffset: sample &* 2, as: Int16.self)))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(Int16(littleEndian: base.loadUnaligned(fromByteOffset: sample &* 2, as: Int16.self)))
    }
}

enum S16BELoad: SampleLoading {
    static var bytesPerSample: Int { 2 }
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        let raw = base.loadUnaligned(fromByteOffset: sample &* 2, as: SIMD16<UInt16>.self)
        let swapped = (raw &<< 8) | (raw &>> 8)
        return SIMD16<Float>(SIMD16<Int16>(truncatingIfNeeded: swapped))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float {
        Float(Int16(bigEndian: base.loadUnaligned(fromByteOffset: sample &* 2, as: Int16.self)))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(Int16(bigEndian: base.loadUnaligned(fromByteOffset: sample &* 2, as: Int16.self)))
    }
}

enum S32LELoad: SampleLoading {
    static var bytesPerSample: Int { 4 }
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        SIMD16<Float>(base.loadUnaligned(fromByteOffset: sample &* 4, as: SIMD16<Int32>.self))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float {
        Float(Int32(littleEndian: base.loadUnaligned(fromByteOffset: sample &* 4, as: Int32.self)))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(Int32(littleEndian: base.loadUnaligned(fromByteOffset: sample &* 4, as: Int32.self)))
    }
}

enum F32LELoad: SampleLoading {
    static var bytesPerSample: Int { 4 }
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        base.loadUnaligned(fromByteOffset: sample &* 4, as: SIMD16<Float>.self)
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float {
        base.loadUnaligned(fromByteOffset: sample &* 4, as: Float.self)
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(base.loadUnaligned(fromByteOffset: sample &* 4, as: Float.self))
    }
}

enum F64LELoad: SampleLoading {
    static var bytesPerSample: Int { 8 }
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        let low = base.loadUnaligned(fromByteOffset: sample &* 8, as: SIMD8<Double>.self)
        let high = base.loadUnaligned(fromByteOffset: sample &* 8 &+ 64, as: SIMD8<Double>.self)
        return SIMD16(lowHalf: SIMD8<Float>(low), highHalf: SIMD8<Float>(high))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float {
        Float(base.loadUnaligned(fromByteOffset: sample &* 8, as: Double.self))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        base.loadUnaligned(fromByteOffset: sample &* 8, as: Double.self)
    }
}
