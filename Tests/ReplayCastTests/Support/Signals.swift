// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels

/// Test signals as interleaved Double samples in [-1, 1], and their encodings.
enum Signals {
    static func sine(frequency: Double, amplitude: Double, rate: Int, frames: Int, channels: Int = 1,
                     phase: Double = 0) -> [Double] {
        var out = [Double](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            let v = amplitude * sin(2 * Double.pi * frequency * Double(n) / Double(rate) + phase)
            for c in 0..<channels { out[n * channels + c] = v }
        }
        return out
    }

    /// A deterministic non-repeating test signal: a sine whose amplitude steps down every
    /// `stepFrames` and differs per channel, so rms, peak and the decaying peak all move.
    static func fallingSteps(rate: Int, frames: Int, channels: Int, stepFrames: Int) -> [Double] {
        var out = [Double](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            let step = Double(n / stepFrames)
            for c in 0..<channels {
                let amplitude = 0.9 * pow(0.7, step) / Double(c + 1)
                out[n * channels + c] = amplitude * sin(2 * Double.pi * 440 * Double(c + 1) * Double(n) / Double(rate))
            }
        }
        return out
    }

    static func encode(_ samples: [Double], as format: SampleFormat) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * format.bytesPerSample)
        for v in samples {
            switch format {
            case .s8:
                bytes.append(UInt8(bitPattern: Int8(clamping: Int((v * 128).rounded()))))
            case .s16le, .s16be:
                let i = Int16(clamping: Int((v * 32768).rounded()))
                let bits = format == .s16le ? UInt16(bitPattern: i).littleEndian : UInt16(bitPattern: i).bigEndian
                withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
            case .s32le:
                let i = Int32(clamping: Int64((v * 2_147_483_648).rounded()))
                withUnsafeBytes(of: i.littleEndian) { bytes.append(contentsOf: $0) }
            case .f32le:
                withUnsafeBytes(of: Float(v).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            case .f64le:
                withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    static func capsName(_ format: SampleFormat) -> String {
        switch format {
        case .s8: "S8"
        case .s16le: "S16LE"
        case .s16be: "S16BE"
        case .s32le: "S32LE"
        case .f32le: "F32LE"
        case .f64le: "F64LE"
        }
    }
}
