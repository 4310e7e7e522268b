// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// Interleaves planar Float channels (full scale ±1) into raw samples of any
/// `SampleFormat`. Integer formats round to nearest and saturate.
enum SampleStore {
    static func store(_ planes: UnsafePointer<UnsafeMutablePointer<Float>>, channels: Int, frames: Int,
                      format: SampleFormat, into destination: UnsafeMutableRawPointer) {
        switch format {
        case .s8: interleave(planes, channels, frames, destination) { s8($0) }
        case .s16le: interleave(planes, channels, frames, destination) { Int16(littleEndian: s16($0)) }
        case .s16be: interleave(planes, channels, frames, destination) { Int16(bigEndian: s16($0)) }
        case .s32le: interleave(planes, channels, frames, destination) { Int32(littleEndian: s32($0)) }
        case .f32le: interleave(planes, channels, frames, destination) { $0.bitPattern.littleEndian }
        case .f64le: interleave(planes, channels, frames, destination) { Double($0).bitPattern.littleEndian }
        }
    }

    /// `Int16(littleEndian:)` and friends, used backwards: they swap exactly when the host
    /// order differs from the wanted one, which is what storing needs too.
    @inline(__always)
    private static func interleave<T>(_ planes: UnsafePointer<UnsafeMutablePointer<Float>>, _ channels: Int, _ frames: Int,
                                      _ destination: UnsafeMutableRawPointer, _ convert: (Float) -> T) {
        let out = destination.assumingMemoryBound(to: T.self)
        for channel in 0 ..< channels {
            let plane = planes[channel]
            for frame in 0 ..< frames {
                (UnsafeMutableRawPointer(out) + (frame &* channels &+ channel) &* MemoryLayout<T>.size)
                    .storeBytes(of: convert(plane[frame]), as: T.self)
            }
        }
    }

    @inline(__always)
    static func s8(_ value: Float) -> Int8 {
        Int8(max(-128, min(127, (value * 128).rounded(.toNearestOrEven))))
    }

    @inline(__always)
    static func s16(_ value: Float) -> Int16 {
        Int16(max(-32768, min(32767, (value * 32768).rounded(.toNearestOrEven))))
    }

    @inline(__always)
    static func s32(_ value: Float) -> Int32 {
        // 2147483520 is the largest Float below 2³¹.
        Int32(max(-2_147_483_648, min(2_147_483_520, (value * 2_147_483_648).rounded(.toNearestOrEven))))
    }
}
