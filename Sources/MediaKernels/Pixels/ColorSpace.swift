// SPDX-License-Identifier: LGPL-2.1-or-later
/// The YUV matrix of a picture (GStreamer `colorimetry` matrix part).
public enum ColorMatrix: Sendable, CaseIterable {
    case bt601
    case bt709

    /// Luma weights of red and blue; green gets the rest.
    public var kr: Double { self == .bt601 ? 0.299 : 0.2126 }
    public var kb: Double { self == .bt601 ? 0.114 : 0.0722 }
}

/// Quantisation range of 8-bit YUV. iOS screen capture is full range; most encoders and
/// cameras are limited range.
public enum ColorRange: Sendable, CaseIterable {
    /// Y 0…255, chroma 128 ± 127.5 (GStreamer `0_255`: offset 0/128, scale 255).
    case full
    /// Y 16…235, chroma 16…240 (GStreamer `16_235`: offset 16/128, scales 219 and 224).
    case limited

    var lumaOffset: Double { self == .full ? 0 : 16 }
    var lumaScale: Double { self == .full ? 255 : 219 }
    var chromaScale: Double { self == .full ? 255 : 224 }
}

/// A (matrix, range) pair: everything that decides how YUV bytes map to RGB here.
public struct ColorSpace: Hashable, Sendable {
    public var matrix: ColorMatrix
    public var range: ColorRange

    public init(matrix: ColorMatrix, range: ColorRange) {
        self.matrix = matrix
        self.range = range
    }

    /// What ReplayKit's NV12 screen frames carry.
    public static let screenCapture = ColorSpace(matrix: .bt709, range: .full)
    public static let bt601Limited = ColorSpace(matrix: .bt601, range: .limited)
    public static let bt709Limited = ColorSpace(matrix: .bt709, range: .limited)
    public static let bt601Full = ColorSpace(matrix: .bt601, range: .full)
    public static let bt709Full = ColorSpace(matrix: .bt709, range: .full)
}

/// An 8-bit YUV triple as stored in the planes.
public struct YUVColor: Hashable, Sendable {
    public var y: UInt8
    public var u: UInt8
    public var v: UInt8

    public init(y: UInt8, u: UInt8, v: UInt8) {
        self.y = y
        self.u = u
        self.v = v
    }
}

/// An 8-bit sRGB-coded colour: how backgrounds and borders are specified, whatever the
/// frame format.
public struct RGBColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// compositor's default `background=black`.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 255, green: 255, blue: 255)

    /// `0xRRGGBB`, the way colours are usually written in properties.
    public init(hex: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: hex >> 16), green: UInt8(truncatingIfNeeded: hex >> 8),
                  blue: UInt8(truncatingIfNeeded: hex))
    }

    /// The YUV bytes of this colour in `space`, rounded to nearest. Black is (0,128,128) in
    /// full range and (16,128,128) in limited range, white (255,128,128) / (235,128,128).
    public func yuv(in space: ColorSpace) -> YUVColor {
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let kr = space.matrix.kr, kb = space.matrix.kb
        let luma = kr * r + (1 - kr - kb) * g + kb * b
        let pb = (b - luma) / (2 * (1 - kb))
        let pr = (r - luma) / (2 * (1 - kr))
        func byte(_ value: Double) -> UInt8 { UInt8(Swift.min(Swift.max(value.rounded(), 0), 255)) }
        return YUVColor(y: byte(space.range.lumaOffset + space.range.lumaScale * luma),
                        u: byte(128 + space.range.chromaScale * pb),
                        v: byte(128 + space.range.chromaScale * pr))
    }
}

/// A colour resolved to the bytes of each plane of one format, so kernels only copy bytes.
/// Packed formats get alpha 255.
public struct PlaneColor: Sendable {
    /// Up to 4 bytes for each plane, in memory order within one sample position.
    public let bytes: [[UInt8]]

    public init(_ color: RGBColor, format: PixelFormat, space: ColorSpace) {
        self.init(color, alpha: 255, format: format, space: space)
    }

    /// The same with the alpha byte of packed formats given (4:2:0 has no alpha: ignored).
    public init(_ color: RGBColor, alpha: UInt8, format: PixelFormat, space: ColorSpace) {
        switch format {
        case .nv12:
            let yuv = color.yuv(in: space)
            bytes = [[yuv.y], [yuv.u, yuv.v]]
        case .i420:
            let yuv = color.yuv(in: space)
            bytes = [[yuv.y], [yuv.u], [yuv.v]]
        case .rgba:
            bytes = [[color.red, color.green, color.blue, alpha]]
        case .bgra:
            bytes = [[color.blue, color.green, color.red, alpha]]
        }
    }
}
