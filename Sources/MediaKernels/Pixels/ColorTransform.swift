// SPDX-License-Identifier: LGPL-2.1-or-later
/// Converts 8-bit YUV between two (matrix, range) pairs, so the element can bring a small
/// PiP to the main picture's colour space instead of converting the main picture.
///
/// YUV → RGB → YUV collapses to one affine map, and because the matrices give grey for
/// zero chroma, chroma never depends on luma:
///   Y' = cY·Y + cU·(U−128) + cV·(V−128) + k,   (U',V') = C·(U−128, V−128) + 128.
/// The coefficients are computed once per pair in Double and kept in Q12 fixed point: 12
/// fraction bits keep the result within ±1 of the exact value for every input, which 8
/// bits would not on saturated colours. In 4:2:0, each luma pixel uses the chroma sample of
/// its 2×2 block.
public struct ColorTransform: Sendable {
    public let source: ColorSpace
    public let destination: ColorSpace
    static let fractionBits = 12
    let lumaScale: Int32
    let lumaFromU: Int32
    let lumaFromV: Int32
    /// Everything constant in Y', plus the rounding half.
    let lumaConstant: Int32
    let chroma: (uu: Int32, uv: Int32, vu: Int32, vv: Int32)

    public init(from source: ColorSpace, to destination: ColorSpace) {
        self.source = source
        self.destination = destination
        let toRGB = Self.yuvToRGB(source.matrix), toYUV = Self.rgbToYUV(destination.matrix)
        var t = [[Double]](repeating: [0, 0, 0], count: 3)
        for r in 0..<3 { for c in 0..<3 { for k in 0..<3 { t[r][c] += toYUV[r][k] * toRGB[k][c] } } }
        let a = source.range, b = destination.range
        let one = Double(1 << Self.fractionBits)
        func fixed(_ value: Double) -> Int32 { Int32((value * one).rounded()) }
        let scaleY = b.lumaScale / a.lumaScale
        lumaScale = fixed(scaleY)
        lumaFromU = fixed(b.lumaScale * t[0][1] / a.chromaScale)
        lumaFromV = fixed(b.lumaScale * t[0][2] / a.chromaScale)
        lumaConstant = fixed(b.lumaOffset - scaleY * a.lumaOffset) + Int32(1 << (Self.fractionBits - 1))
        let chromaScale = b.chromaScale / a.chromaScale
        chroma = (fixed(chromaScale * t[1][1]), fixed(chromaScale * t[1][2]), fixed(chromaScale * t[2][1]), fixed(chromaScale * t[2][2]))
    }

    public var isIdentity: Bool { source == destination }

    /// Rows: Y, Pb, Pr; columns: R, G, B (all normalised, Pb/Pr in ±0.5).
    static func rgbToYUV(_ matrix: ColorMatrix) -> [[Double]] {
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        return [[kr, kg, kb],
                [-kr / (2 * (1 - kb)), -kg / (2 * (1 - kb)), 0.5],
                [0.5, -kg / (2 * (1 - kr)), -kb / (2 * (1 - kr))]]
    }

    static func yuvToRGB(_ matrix: ColorMatrix) -> [[Double]] {
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        return [[1, 0, 2 * (1 - kr)],
                [1, -2 * (1 - kb) * kb / kg, -2 * (1 - kr) * kr / kg],
                [1, 2 * (1 - kb), 0]]
    }

    /// The transform of one YUV triple, for tests and single colours.
    public func apply(_ color: YUVColor) -> YUVColor {
        let u = Int32(color.u) - 128, v = Int32(color.v) - 128
        return YUVColor(y: Self.clamp(lumaScale * Int32(color.y) + lumaFromU * u + lumaFromV * v + lumaConstant),
                        u: Self.clamp(chroma.uu * u + chroma.uv * v + Self.chromaBias),
                        v: Self.clamp(chroma.vu * u + chroma.vv * v + Self.chromaBias))
    }

    static let chromaBias = Int32((128 << fractionBits) + (1 << (fractionBits - 1)))

    @inline(__always)
    static func clamp(_ fixed: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: Swift.min(Swift.max(fixed >> Int32(fractionBits), 0), 255))
    }

    /// Converts `frame` (NV12 or I420) into `destination` of the same format and size; the
    /// two may be the same frame (luma is done first, while the old chroma is still there).
    public func apply(_ frame: VideoFrame, into destination: VideoFrame) {
        precondition(frame.format.isYUV && destination.format == frame.format && destination.size == frame.size,
                     "colour transform needs two YUV frames of one format and size")
        let interleaved = frame.format == .nv12
        let u = frame.plane(1), v = interleaved ? frame.plane(1) : frame.plane(2)
        let chromaStep = interleaved ? 2 : 1, vOffset = interleaved ? 1 : 0
        let luma = frame.plane(0), outLuma = destination.plane(0)
        for y in 0..<frame.height {
            let uRow = u.row(y >> 1), vRow = v.row(y >> 1) + vOffset
            let input = luma.row(y), output = outLuma.row(y)
            for x in 0..<frame.width {
                let c = (x >> 1) * chromaStep
                let term = lumaFromU * (Int32(uRow[c]) - 128) + lumaFromV * (Int32(vRow[c]) - 128) + lumaConstant
                output[x] = Self.clamp(lumaScale * Int32(input[x]) + term)
            }
        }
        let outU = destination.plane(1), outV = interleaved ? destination.plane(1) : destination.plane(2)
        for y in 0..<u.height {
            let uRow = u.row(y), vRow = v.row(y) + vOffset
            let uOut = outU.row(y), vOut = outV.row(y) + vOffset
            for x in 0..<u.width {
                let c = x * chromaStep
                let du = Int32(uRow[c]) - 128, dv = Int32(vRow[c]) - 128
                uOut[c] = Self.clamp(chroma.uu * du + chroma.uv * dv + Self.chromaBias)
                vOut[c] = Self.clamp(chroma.vu * du + chroma.vv * dv + Self.chromaBias)
            }
        }
    }
}
