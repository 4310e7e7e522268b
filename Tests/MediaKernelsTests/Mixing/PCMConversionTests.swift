// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import MediaKernels
import Testing

@Suite struct PCMConversionTests {
    static func bytes(of values: [Int16], bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for v in values { withUnsafeBytes(of: bigEndian ? v.bigEndian : v.littleEndian) { out += $0 } }
        return out
    }

    static let extremes: [Int16] = [0, 1, -1, 32767, -32768, 12345, -23456, 256, -256]

    /// 37 samples: two vectors and a scalar tail.
    static var s16Values: [Int16] { (0..<37).map { extremes[$0 % extremes.count] &* ($0 % 2 == 0 ? 1 : -1) } }

    @Test(arguments: [SampleFormat.s16le, .s16be])
    func s16ReadsAsExactlyScaledFloats(format: SampleFormat) {
        let values = Self.s16Values
        let raw = Self.bytes(of: values, bigEndian: format == .s16be)
        var floats = [Float](repeating: .nan, count: values.count)
        raw.withUnsafeBytes { src in
            floats.withUnsafeMutableBufferPointer {
                PCMConversion.toFloat(src.baseAddress!, format: format, samples: values.count, into: $0.baseAddress!)
            }
        }
        #expect(floats == values.map { Float($0) / 32768 })
    }

    @Test func s16RoundTripsBitExactly() {
        let values = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        let raw = Self.bytes(of: values, bigEndian: false)
        var floats = [Float](repeating: 0, count: values.count)
        var back = [UInt8](repeating: 0, count: raw.count)
        raw.withUnsafeBytes { src in
            floats.withUnsafeMutableBufferPointer { f in
                PCMConversion.toFloat(src.baseAddress!, format: .s16le, samples: values.count, into: f.baseAddress!)
                back.withUnsafeMutableBytes { PCMConversion.toS16LE(f.baseAddress!, samples: values.count, into: $0.baseAddress!) }
            }
        }
        #expect(back == raw)
    }

    @Test func f32IsCopiedBitForBit() {
        let values: [Float] = (0..<35).map { Float($0) * 0.37 - 6 } + [.nan, -0.0, .infinity]
        var raw = [UInt8](repeating: 0, count: values.count * 4)
        var floats = [Float](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { v in
            raw.withUnsafeMutableBytes { PCMConversion.toF32LE(v.baseAddress!, samples: values.count, into: $0.baseAddress!) }
        }
        raw.withUnsafeBytes { src in
            floats.withUnsafeMutableBufferPointer {
                PCMConversion.toFloat(src.baseAddress!, format: .f32le, samples: values.count, into: $0.baseAddress!)
            }
        }
        #expect(!values.isEmpty && sameBits(floats, values) == values.count)
    }

    /// Rounding to nearest (ties to even), saturation instead of wrap-around, NaN to 0, and
    /// the vector path agreeing with the scalar one.
    @Test func floatToS16RoundsAndSaturates() {
        let cases: [(Float, Int16)] = [
            (0, 0), (0.5 / 32768, 0), (1.5 / 32768, 2), (2.5 / 32768, 2), (-1.5 / 32768, -2),
            (0.49 / 32768, 0), (0.51 / 32768, 1), (1, 32767), (-1, -32768), (32767.4 / 32768, 32767),
            (1.5, 32767), (-4, -32768), (.infinity, 32767), (-.infinity, -32768), (.nan, 0),
            (0.25, 8192), (-0.25, -8192),
        ]
        let inputs = Array(repeating: cases.map(\.0), count: 3).flatMap { $0 }
        let expected = Array(repeating: cases.map(\.1), count: 3).flatMap { $0 }
        var raw = [UInt8](repeating: 0xAA, count: inputs.count * 2)
        inputs.withUnsafeBufferPointer { v in
            raw.withUnsafeMutableBytes { PCMConversion.toS16LE(v.baseAddress!, samples: inputs.count, into: $0.baseAddress!) }
        }
        let got = raw.withUnsafeBytes { b in (0..<inputs.count).map { Int16(littleEndian: b.load(fromByteOffset: $0 * 2, as: Int16.self)) } }
        #expect(got == expected)
        #expect(inputs.map(PCMConversion.s16) == expected)
    }

    @Test func otherFormatsScaleToFullScaleOne() {
        var raw: [UInt8] = []
        let ints: [Int32] = [Int32.min, 0, 1 << 30]
        for v in ints { withUnsafeBytes(of: v.littleEndian) { raw += $0 } }
        var floats = [Float](repeating: 0, count: 3)
        raw.withUnsafeBytes { src in
            floats.withUnsafeMutableBufferPointer { PCMConversion.toFloat(src.baseAddress!, format: .s32le, samples: 3, into: $0.baseAddress!) }
        }
        #expect(floats == [-1, 0, 0.5])
    }

    @Test func s8ScalesBy128() {
        let raw: [Int8] = [-128, -64, -1, 0, 1, 64, 127] + [Int8](repeating: 32, count: 16)
        var floats = [Float](repeating: 0, count: raw.count)
        raw.withUnsafeBytes { src in
            floats.withUnsafeMutableBufferPointer { PCMConversion.toFloat(src.baseAddress!, format: .s8, samples: raw.count, into: $0.baseAddress!) }
        }
        #expect(floats == [-1, -0.5, -0.0078125, 0, 0.0078125, 0.5, 0.9921875] + [Float](repeating: 0.25, count: 16))
    }
}
