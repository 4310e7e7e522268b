// SPDX-License-Identifier: LGPL-2.1-or-later
/// Row loops shared by every operation: they see bytes, never formats. SIMD16 lanes map to
/// two SSE registers of 8×16 bit, the widest that the default x86-64 target has.
enum RowKernels {
    typealias Bytes = SIMD16<UInt8>
    typealias Words = SIMD16<UInt16>

    @inline(__always)
    static func load(_ pointer: UnsafePointer<UInt8>) -> Bytes {
        UnsafeRawPointer(pointer).loadUnaligned(as: Bytes.self)
    }

    @inline(__always)
    static func store(_ value: Bytes, _ pointer: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: Bytes.self)
    }

    @inline(__always)
    static func widen(_ value: Bytes) -> Words { Words(truncatingIfNeeded: value) }

    @inline(__always)
    static func narrow(_ value: Words) -> Bytes { Bytes(truncatingIfNeeded: value) }

    /// Repeats a 1-, 2- or 4-byte pattern over `count` sample positions.
    static func fill(_ destination: UnsafeMutablePointer<UInt8>, count: Int, pattern: [UInt8]) {
        let size = pattern.count
        if size == 1 {
            destination.update(repeating: pattern[0], count: count)
            return
        }
        var vector = Bytes()
        for lane in 0..<16 { vector[lane] = pattern[lane % size] }
        let total = count * size
        var index = 0
        while index + 16 <= total {
            store(vector, destination + index)
            index += 16
        }
        while index < total {
            destination[index] = pattern[index % size]
            index += 1
        }
    }

    /// compositor's 4:2:0 blend (`compositor_orc_blend_u8`): d = (d·(256−a) + s·a) >> 8,
    /// over `count` bytes. Exact in 16 bits because the two weights sum to 256.
    static func blend(_ destination: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>, count: Int, alpha: Int) {
        let weight = Words(repeating: UInt16(alpha)), inverse = Words(repeating: UInt16(256 - alpha))
        var index = 0
        while index + 16 <= count {
            let mixed = widen(load(destination + index)) &* inverse &+ widen(load(source + index)) &* weight
            store(narrow(mixed &>> 8), destination + index)
            index += 16
        }
        while index < count {
            destination[index] = UInt8((Int(destination[index]) * (256 - alpha) + Int(source[index]) * alpha) >> 8)
            index += 1
        }
    }

    /// Same formula with a constant source pattern (a border colour).
    static func blend(_ destination: UnsafeMutablePointer<UInt8>, count: Int, pattern: [UInt8], alpha: Int) {
        let size = pattern.count
        var colour = Words()
        for lane in 0..<16 { colour[lane] = UInt16(pattern[lane % size]) * UInt16(alpha) }
        let inverse = Words(repeating: UInt16(256 - alpha))
        let total = count * size
        var index = 0
        if 16 % size == 0 {
            while index + 16 <= total {
                store(narrow((widen(load(destination + index)) &* inverse &+ colour) &>> 8), destination + index)
                index += 16
            }
        }
        while index < total {
            destination[index] = UInt8((Int(destination[index]) * (256 - alpha) + Int(pattern[index % size]) * alpha) >> 8)
            index += 1
        }
    }

    /// Rounded x / 255 for 0 ≤ x ≤ 65535 (ORC's `div255w`).
    @inline(__always)
    static func divide255(_ value: Int) -> Int {
        let biased = value + 128
        return (biased + (biased >> 8)) >> 8
    }

    /// compositor's RGBA/BGRA blend over an opaque background (`compositor_orc_blend_bgra`):
    /// per-pixel alpha a = A·α/255, colour d = (s·a + d·(255−a))/255 (both rounded), and the
    /// result is opaque. Alpha is the 4th byte in both layouts.
    static func blendPacked(_ destination: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>, pixels: Int, alpha: Int) {
        for pixel in 0..<pixels {
            let s = source + pixel * 4, d = destination + pixel * 4
            let a = divide255(Int(s[3]) * alpha)
            if a == 255 {
                d[0] = s[0]; d[1] = s[1]; d[2] = s[2]
            } else if a > 0 {
                let keep = 255 - a
                d[0] = UInt8(divide255(Int(s[0]) * a + Int(d[0]) * keep))
                d[1] = UInt8(divide255(Int(s[1]) * a + Int(d[1]) * keep))
                d[2] = UInt8(divide255(Int(s[2]) * a + Int(d[2]) * keep))
            }
            d[3] = 255
        }
    }
}
