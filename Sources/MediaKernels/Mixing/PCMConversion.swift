// SPDX-License-Identifier: LGPL-2.1-or-later
#if _endian(big)
#error("PCMConversion reads and writes little-endian formats with plain loads and stores")
#endif

/// Raw interleaved PCM to and from the Float samples the mixer works in, 16 samples per step.
/// Integer samples scale by 1/full scale (S8: 1/128, S16: 1/32768), which is exact, so
/// S16 → Float → S16 gives back the same integers.
public enum PCMConversion {
    private static let lanes = 16
    private static let roundingBias = SIMD16<Float>(repeating: 12_582_912)
    private static let roundingBiasBits = SIMD16<Int32>(repeating: 0x4B40_0000)

    /// Converts `samples` raw samples (frames × channels) of `format` into Floats where
    /// integer full scale is 1.0. F32LE is copied bit for bit.
    public static func toFloat(
        _ source: UnsafeRawPointer, format: SampleFormat, samples: Int, into destination: UnsafeMutablePointer<Float>
    ) {
        switch format {
        case .s8: load(S8Load.self, source, samples, destination, scale: 1 / 128)
        case .s16le: load(S16LELoad.self, source, samples, destination, scale: 1 / 32768)
        case .s16be: load(S16BELoad.self, source, samples, destination, scale: 1 / 32768)
        case .s32le: load(S32LELoad.self, source, samples, destination, scale: 1 / 2_147_483_648)
        case .f32le: UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: samples * 4)
        case .f64le: load(F64LELoad.self, source, samples, destination, scale: 1)
        }
    }

    /// Float to S16LE: scaled by 32768, rounded to nearest (ties to even), saturated to
    /// −32768…32767 so overs clip instead of wrapping; NaN becomes 0.
    public static func toS16LE(_ source: UnsafePointer<Float>, samples: Int, into destination: UnsafeMutableRawPointer) {
        let vectors = samples / lanes
        let src = UnsafeRawPointer(source)
        for v in 0..<vectors {
            let x = src.loadUnaligned(fromByteOffset: v &* 64, as: SIMD16<Float>.self)
            // Masked selects compile to vector instructions; `clamped` and pointwiseMin/Max
            // on Float vectors go lane by lane (Swift 6.3, baseline x86-64).
            var clamped = (x * 32768).replacing(with: 0, where: x .!= x)
            clamped.replace(with: 32767, where: clamped .> 32767)
            clamped.replace(with: -32768, where: clamped .< -32768)
            // Adding 1.5·2²³ leaves the value rounded (ties to even) in the low mantissa bits,
            // which Float → Int conversion of vectors would otherwise do lane by lane.
            let shifted = clamped + roundingBias
            let integers = unsafeBitCast(shifted, to: SIMD16<Int32>.self) &- roundingBiasBits
            destination.storeBytes(of: SIMD16<Int16>(truncatingIfNeeded: integers), toByteOffset: v &* 32, as: SIMD16<Int16>.self)
        }
        for i in (vectors * lanes)..<samples {
            destination.storeBytes(of: s16(source[i]).littleEndian, toByteOffset: i &* 2, as: Int16.self)
        }
    }

    /// Float to F32LE: a plain copy (the host is little-endian).
    public static func toF32LE(_ source: UnsafePointer<Float>, samples: Int, into destination: UnsafeMutableRawPointer) {
        destination.copyMemory(from: source, byteCount: samples * 4)
    }

    /// One sample of `toS16LE`, for tails and tests.
    @inline(__always)
    static func s16(_ x: Float) -> Int16 {
        guard !x.isNaN else { return 0 }
        return Int16(min(max(x * 32768, -32768), 32767).rounded(.toNearestOrEven))
    }

    @inline(__always)
    private static func load<L: OrderedSampleLoading>(
        _: L.Type, _ source: UnsafeRawPointer, _ samples: Int, _ destination: UnsafeMutablePointer<Float>, scale: Float
    ) {
        let vectors = samples / lanes
        let dst = UnsafeMutableRawPointer(destination)
        for v in 0..<vectors {
            dst.storeBytes(of: L.vector(source, v &* lanes) * scale, toByteOffset: v &* 64, as: SIMD16<Float>.self)
        }
        for i in (vectors * lanes)..<samples {
            destination[i] = L.scalar(source, i) * scale
        }
    }
}
