// SPDX-License-Identifier: LGPL-2.1-or-later
/// Reads 16 interleaved samples at a time: as two SIMD8 vectors in raw sample units for
/// squaring (callers scale once per result, not once per sample), while folding the block's
/// extremes into a running state for the peak.
///
/// Everything here is written with concrete SIMD types so it lowers to plain vector
/// instructions: Swift's generic SIMD conversions and comparisons became per-lane calls and
/// loops on baseline x86-64. Integer bit tricks stand in for them: Int32 → Float through the
/// 1.5·2^23 float bias (where AVX2 has no single instruction for it), 16-bit peaks through
/// Int16 max/min, float peaks through integer compares of the magnitude bits. This file is
/// compiled twice, with LevelLoops.
protocol SampleLoading {
    associatedtype Value: BinaryFloatingPoint & SIMDScalar
    associatedtype Extremes
    static var bytesPerSample: Int { get }
    static var noExtremes: Extremes { get }
    /// Samples 16·block ..< 16·block + 16; lane order given by `position(vector:lane:)`.
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout Extremes) -> (SIMD8<Value>, SIMD8<Value>)
    /// Position inside the block of lane `lane` of vector `vector` (0 or 1).
    static func position(vector: Int, lane: Int) -> Int
    /// Largest magnitude (raw units) seen at position `sample` (0..<16) of the blocks.
    static func peak(_ extremes: Extremes, at sample: Int) -> Double
    /// Raises peaks[c] to channel c's largest magnitude (raw units) in the blocks, when
    /// `channels` divides 8 (then position p of every block is channel p mod channels);
    /// false when the format leaves that to `peak(_:at:)` position by position.
    static func foldPeaks(_ extremes: Extremes, channels: Int, into peaks: UnsafeMutablePointer<Double>) -> Bool
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double
}

/// Formats other than 16-bit collect their peaks position by position.
extension SampleLoading {
    static func foldPeaks(_ extremes: Extremes, channels: Int, into peaks: UnsafeMutablePointer<Double>) -> Bool { false }
}

/// Exact Int32 → Float for |x| < 2^22. AVX2 converts eight lanes in one instruction; on
/// baseline x86-64 the generic conversion goes lane by lane, so there the bias is added as an
/// integer, the bits reinterpreted and the bias subtracted.
@inline(__always)
private func exactFloat(_ x: SIMD8<Int32>) -> SIMD8<Float> {
    #if KERNELS_FMA
    SIMD8<Float>(x)
    #else
    unsafeBitCast(x &+ 0x4B40_0000, to: SIMD8<Float>.self) - 12_582_912
    #endif
}

/// 16-bit samples: the low halves of a block's Int32 lanes are its even samples, the high
/// halves the odd ones (for stereo: left and right).
enum Sixteen {
    typealias Extremes = (highest: SIMD16<Int16>, lowest: SIMD16<Int16>)
    static let noExtremes: Extremes = (.init(repeating: 0), .init(repeating: 0))

    @inline(__always)
    static func split(_ samples: SIMD16<Int16>, _ extremes: inout Extremes) -> (SIMD8<Float>, SIMD8<Float>) {
        extremes.highest.replace(with: samples, where: samples .> extremes.highest)
        extremes.lowest.replace(with: samples, where: samples .< extremes.lowest)
        let pairs = unsafeBitCast(samples, to: SIMD8<Int32>.self)
        return (exactFloat((pairs &<< 16) &>> 16), exactFloat(pairs &>> 16))
    }

    static func position(vector: Int, lane: Int) -> Int { 2 * lane + vector }
    static func peak(_ extremes: Extremes, at sample: Int) -> Double {
        max(Double(extremes.highest[sample]), -Double(extremes.lowest[sample]))
    }

    /// The halves of the block fold onto each other (positions p and p + 8, then p + 4,
    /// p + 2, p + 1 hold the same channel) in vector registers until `channels` lanes remain:
    /// 16-bit audio is the common case, and position by position cost more than its samples.
    static func foldPeaks(_ extremes: Extremes, channels: Int, into peaks: UnsafeMutablePointer<Double>) -> Bool {
        var high8 = extremes.highest.lowHalf, low8 = extremes.lowest.lowHalf
        high8.replace(with: extremes.highest.highHalf, where: extremes.highest.highHalf .> high8)
        low8.replace(with: extremes.lowest.highHalf, where: extremes.lowest.highHalf .< low8)
        var high4 = high8.lowHalf, low4 = low8.lowHalf
        high4.replace(with: high8.highHalf, where: high8.highHalf .> high4)
        low4.replace(with: low8.highHalf, where: low8.highHalf .< low4)
        var high2 = high4.lowHalf, low2 = low4.lowHalf
        high2.replace(with: high4.highHalf, where: high4.highHalf .> high2)
        low2.replace(with: low4.highHalf, where: low4.highHalf .< low2)
        func raise(_ c: Int, _ high: Int16, _ low: Int16) { peaks[c] = max(peaks[c], Double(high), -Double(low)) }
        switch channels {
        case 1: raise(0, max(high2[0], high2[1]), min(low2[0], low2[1]))
        case 2: for c in 0..<2 { raise(c, high2[c], low2[c]) }
        case 4: for c in 0..<4 { raise(c, high4[c], low4[c]) }
        case 8: for c in 0..<8 { raise(c, high8[c], low8[c]) }
        default: return false
        }
        return true
    }
}

/// Integer lanes to Float, written lane by lane: the optimizer makes that sign extensions and
/// one conversion per four lanes, where `SIMD16<Float>(_: SIMD16<Int16>)` stayed a call per
/// vector (half the cost of converting a dualmixer input buffer).
@inline(__always)
private func floats<Lanes: SIMD, Result: SIMD>(_ x: Lanes) -> Result
    where Lanes.Scalar: FixedWidthInteger, Result.Scalar == Float {
    var result = Result()
    for i in 0..<Result.scalarCount { result[i] = Float(x[i]) }
    return result
}

/// 8-bit samples: a block is 16 bytes, read as eight Int16 lanes whose low bytes hold the
/// even samples and high bytes the odd ones (on a little-endian host), the 16-bit layout
/// one size down. Squares of 8-bit values are exact in Float, and so are 64 blocks of them.
enum S8Load: SampleLoading {
    typealias Extremes = (highest: SIMD16<Int8>, lowest: SIMD16<Int8>)
    static var bytesPerSample: Int { 1 }
    static var noExtremes: Extremes { (.init(repeating: 0), .init(repeating: 0)) }
    @inline(__always)
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout Extremes) -> (SIMD8<Float>, SIMD8<Float>) {
        let samples = base.loadUnaligned(fromByteOffset: block &* 16, as: SIMD16<Int8>.self)
        extremes.highest.replace(with: samples, where: samples .> extremes.highest)
        extremes.lowest.replace(with: samples, where: samples .< extremes.lowest)
        let pairs = unsafeBitCast(samples, to: SIMD8<Int16>.self)
        return (floats((pairs &<< 8) &>> 8), floats(pairs &>> 8))
    }
    static func position(vector: Int, lane: Int) -> Int {
        #if _endian(little)
        2 * lane + vector
        #else
        2 * lane + 1 - vector
        #endif
    }
    static func peak(_ extremes: Extremes, at sample: Int) -> Double {
        max(Double(extremes.highest[sample]), -Double(extremes.lowest[sample]))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(base.load(fromByteOffset: sample, as: Int8.self))
    }
}

enum S16LELoad: SampleLoading {
    static var bytesPerSample: Int { 2 }
    static var noExtremes: Sixteen.Extremes { Sixteen.noExtremes }
    @inline(__always)
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout Sixteen.Extremes) -> (SIMD8<Float>, SIMD8<Float>) {
        let raw = base.loadUnaligned(fromByteOffset: block &* 32, as: SIMD16<UInt16>.self)
        #if _endian(little)
        let samples = raw
        #else
        let samples = (raw &<< 8) | (raw &>> 8)
        #endif
        return Sixteen.split(unsafeBitCast(samples, to: SIMD16<Int16>.self), &extremes)
    }
    static func position(vector: Int, lane: Int) -> Int { Sixteen.position(vector: vector, lane: lane) }
    static func peak(_ extremes: Sixteen.Extremes, at sample: Int) -> Double { Sixteen.peak(extremes, at: sample) }
    static func foldPeaks(_ extremes: Sixteen.Extremes, channels: Int, into peaks: UnsafeMutablePointer<Double>) -> Bool {
        Sixteen.foldPeaks(extremes, channels: channels, into: peaks)
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(Int16(littleEndian: base.loadUnaligned(fromByteOffset: sample &* 2, as: Int16.self)))
    }
}

enum S16BELoad: SampleLoading {
    static var bytesPerSample: Int { 2 }
    static var noExtremes: Sixteen.Extremes { Sixteen.noExtremes }
    @inline(__always)
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout Sixteen.Extremes) -> (SIMD8<Float>, SIMD8<Float>) {
        let raw = base.loadUnaligned(fromByteOffset: block &* 32, as: SIMD16<UInt16>.self)
        #if _endian(little)
        let samples = (raw &<< 8) | (raw &>> 8)
        #else
        let samples = raw
        #endif
        return Sixteen.split(unsafeBitCast(samples, to: SIMD16<Int16>.self), &extremes)
    }
    static func position(vector: Int, lane: Int) -> Int { Sixteen.position(vector: vector, lane: lane) }
    static func peak(_ extremes: Sixteen.Extremes, at sample: Int) -> Double { Sixteen.peak(extremes, at: sample) }
    static func foldPeaks(_ extremes: Sixteen.Extremes, channels: Int, into peaks: UnsafeMutablePointer<Double>) -> Bool {
        Sixteen.foldPeaks(extremes, channels: channels, into: peaks)
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(Int16(bigEndian: base.loadUnaligned(fromByteOffset: sample &* 2, as: Int16.self)))
    }
}

/// Formats with 4- or 8-byte samples keep, per position, the largest integer "magnitude key".
typealias KeyPair<Key: SIMDScalar> = (SIMD8<Key>, SIMD8<Key>)

enum S32LELoad: SampleLoading {
    static var bytesPerSample: Int { 4 }
    static var noExtremes: KeyPair<Int32> { (.init(repeating: 0), .init(repeating: 0)) }
    @inline(__always)
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout KeyPair<Int32>) -> (SIMD8<Float>, SIMD8<Float>) {
        let a = Int32x8(littleEndian: base.loadUnaligned(fromByteOffset: block &* 64, as: SIMD8<Int32>.self))
        let b = Int32x8(littleEndian: base.loadUnaligned(fromByteOffset: block &* 64 &+ 32, as: SIMD8<Int32>.self))
        // One's complement: |x| for x ≥ 0, |x| - 1 for x < 0, so Int32.min cannot overflow;
        // a negative peak reads at most 1/2^31 of full scale low.
        let ka = a ^ (a &>> 31), kb = b ^ (b &>> 31)
        extremes.0.replace(with: ka, where: ka .> extremes.0)
        extremes.1.replace(with: kb, where: kb .> extremes.1)
        return (wide(a), wide(b))
    }
    /// Full-range Int32 → Float as high·65536 + low, each half exact through the bias.
    @inline(__always)
    private static func wide(_ x: SIMD8<Int32>) -> SIMD8<Float> {
        exactFloat(x &>> 16) * 65536 + exactFloat(x & 0xFFFF)
    }
    static func position(vector: Int, lane: Int) -> Int { 8 * vector + lane }
    static func peak(_ extremes: KeyPair<Int32>, at sample: Int) -> Double {
        Double(sample < 8 ? extremes.0[sample] : extremes.1[sample - 8])
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(Int32(littleEndian: base.loadUnaligned(fromByteOffset: sample &* 4, as: Int32.self)))
    }
}

enum F32LELoad: SampleLoading {
    static var bytesPerSample: Int { 4 }
    static var noExtremes: KeyPair<Int32> { (.init(repeating: 0), .init(repeating: 0)) }
    @inline(__always)
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout KeyPair<Int32>) -> (SIMD8<Float>, SIMD8<Float>) {
        let a = base.loadUnaligned(fromByteOffset: block &* 64, as: SIMD8<Float>.self)
        let b = base.loadUnaligned(fromByteOffset: block &* 64 &+ 32, as: SIMD8<Float>.self)
        // Without the sign bit, IEEE floats order like their bit patterns.
        let ka = unsafeBitCast(a, to: SIMD8<Int32>.self) & 0x7FFF_FFFF
        let kb = unsafeBitCast(b, to: SIMD8<Int32>.self) & 0x7FFF_FFFF
        extremes.0.replace(with: ka, where: ka .> extremes.0)
        extremes.1.replace(with: kb, where: kb .> extremes.1)
        return (a, b)
    }
    static func position(vector: Int, lane: Int) -> Int { 8 * vector + lane }
    static func peak(_ extremes: KeyPair<Int32>, at sample: Int) -> Double {
        let key = sample < 8 ? extremes.0[sample] : extremes.1[sample - 8]
        return Double(Float(bitPattern: UInt32(bitPattern: key)))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        Double(base.loadUnaligned(fromByteOffset: sample &* 4, as: Float.self))
    }
}

enum F64LELoad: SampleLoading {
    static var bytesPerSample: Int { 8 }
    static var noExtremes: KeyPair<Int64> { (.init(repeating: 0), .init(repeating: 0)) }
    @inline(__always)
    static func block(_ base: UnsafeRawPointer, _ block: Int, _ extremes: inout KeyPair<Int64>) -> (SIMD8<Double>, SIMD8<Double>) {
        let a = base.loadUnaligned(fromByteOffset: block &* 128, as: SIMD8<Double>.self)
        let b = base.loadUnaligned(fromByteOffset: block &* 128 &+ 64, as: SIMD8<Double>.self)
        let ka = unsafeBitCast(a, to: SIMD8<Int64>.self) & 0x7FFF_FFFF_FFFF_FFFF
        let kb = unsafeBitCast(b, to: SIMD8<Int64>.self) & 0x7FFF_FFFF_FFFF_FFFF
        extremes.0.replace(with: ka, where: ka .> extremes.0)
        extremes.1.replace(with: kb, where: kb .> extremes.1)
        return (a, b)
    }
    static func position(vector: Int, lane: Int) -> Int { 8 * vector + lane }
    static func peak(_ extremes: KeyPair<Int64>, at sample: Int) -> Double {
        let key = sample < 8 ? extremes.0[sample] : extremes.1[sample - 8]
        return Double(bitPattern: UInt64(bitPattern: key))
    }
    @inline(__always)
    static func double(_ base: UnsafeRawPointer, _ sample: Int) -> Double {
        base.loadUnaligned(fromByteOffset: sample &* 8, as: Double.self)
    }
}

/// Int32 lanes stored little-endian in memory, as host integers.
@inline(__always)
private func Int32x8(littleEndian x: SIMD8<Int32>) -> SIMD8<Int32> {
    #if _endian(little)
    x
    #else
    SIMD8(x[0].byteSwapped, x[1].byteSwapped, x[2].byteSwapped, x[3].byteSwapped,
          x[4].byteSwapped, x[5].byteSwapped, x[6].byteSwapped, x[7].byteSwapped)
    #endif
}

/// Reads in memory order, 16 samples as one vector, for format conversion (PCMConversion):
/// raw sample units, not scaled.
protocol OrderedSampleLoading {
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float>
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float
}

extension S8Load: OrderedSampleLoading {
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        floats(base.loadUnaligned(fromByteOffset: sample, as: SIMD16<Int8>.self))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float { Float(double(base, sample)) }
}

extension S16LELoad: OrderedSampleLoading {
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        floats(base.loadUnaligned(fromByteOffset: sample &* 2, as: SIMD16<Int16>.self))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float { Float(double(base, sample)) }
}

extension S16BELoad: OrderedSampleLoading {
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        let raw = base.loadUnaligned(fromByteOffset: sample &* 2, as: SIMD16<UInt16>.self)
        return floats(unsafeBitCast((raw &<< 8) | (raw &>> 8), to: SIMD16<Int16>.self))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float { Float(double(base, sample)) }
}

extension S32LELoad: OrderedSampleLoading {
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        SIMD16<Float>(base.loadUnaligned(fromByteOffset: sample &* 4, as: SIMD16<Int32>.self))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float { Float(double(base, sample)) }
}

extension F64LELoad: OrderedSampleLoading {
    @inline(__always)
    static func vector(_ base: UnsafeRawPointer, _ sample: Int) -> SIMD16<Float> {
        let low = base.loadUnaligned(fromByteOffset: sample &* 8, as: SIMD8<Double>.self)
        let high = base.loadUnaligned(fromByteOffset: sample &* 8 &+ 64, as: SIMD8<Double>.self)
        return SIMD16(lowHalf: SIMD8<Float>(low), highHalf: SIMD8<Float>(high))
    }
    @inline(__always)
    static func scalar(_ base: UnsafeRawPointer, _ sample: Int) -> Float { Float(double(base, sample)) }
}
