// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// Table-lookup oscillator and noise whose value at sample n depends on n alone, which is
/// what lets `ProgramAudio` render any range identically however it is chunked.
///
/// Phase is a 32-bit fraction of a cycle: phase(n) = n · increment mod 2³², an exact integer,
/// so stepping by the increment and jumping straight to n agree bit for bit.
enum Oscillator {
    static let tableBits = 12
    static let tableSize = 1 << tableBits

    /// One cycle of a soft, organ-like tone (fundamental, 2nd and 3rd harmonics), with a
    /// guard entry so interpolation never wraps. Peak about 1.2.
    static let table: [Float] = (0 ... tableSize).map { index in
        let angle = 2 * Double.pi * Double(index) / Double(tableSize)
        let tone: Double = sin(angle) + 0.35 * sin(2 * angle) + 0.15 * sin(3 * angle)
        return Float(tone)
    }

    /// Phase increment of a tone at `frequency` Hz sampled at `rate`.
    static func increment(frequency: Double, rate: Int) -> UInt32 {
        UInt32((frequency / Double(rate) * 4_294_967_296).rounded())
    }

    static func phase(at frame: Int64, increment: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(bitPattern: frame) &* UInt64(increment))
    }

    @inline(__always)
    static func sample(_ table: UnsafeBufferPointer<Float>, _ phase: UInt32) -> Float {
        let index = Int(phase >> UInt32(32 - tableBits))
        let fraction = Float(phase & (1 << UInt32(32 - tableBits) - 1)) * (1 / Float(1 << (32 - tableBits)))
        let a = table[index], b = table[index + 1]
        return a + (b - a) * fraction
    }

    /// Uniform white noise in [-1, 1) for sample `frame` of stream `seed`.
    @inline(__always)
    static func noise(_ frame: Int64, seed: UInt64) -> Float {
        let bits = Scramble.mix(UInt64(bitPattern: frame) ^ (seed &* 0xD6E8_FEB8_6659_FD93))
        return Float(Int32(truncatingIfNeeded: bits >> 32)) * (1 / 2_147_483_648)
    }

    /// A fixed-resolution curve over [0, 1], sampled with linear interpolation: envelopes that
    /// would otherwise need `exp` per sample.
    struct Curve: Sendable {
        static let steps = 1024
        let values: [Float]

        init(_ shape: (Double) -> Double) {
            values = (0 ... Self.steps).map { Float(shape(Double($0) / Double(Self.steps))) }
        }

        @inline(__always)
        static func sample(_ values: UnsafeBufferPointer<Float>, _ position: Float) -> Float {
            let scaled = position * Float(steps)
            let index = min(Int(scaled), steps - 1)
            let fraction = scaled - Float(index)
            return values[index] + (values[index + 1] - values[index]) * fraction
        }
    }
}

/// Equal-tempered pitch of a MIDI note number.
func noteFrequency(_ note: Int) -> Double { 440 * pow(2, Double(note - 69) / 12) }
