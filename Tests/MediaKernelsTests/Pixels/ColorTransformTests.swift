// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct ColorTransformTests {
    static let spaces = [ColorSpace.bt601Full, .bt601Limited, .bt709Full, .bt709Limited]

    /// YUV → RGB → YUV in Double, straight from the definitions.
    static func reference(_ c: YUVColor, _ a: ColorSpace, _ b: ColorSpace) -> (Double, Double, Double) {
        func offsets(_ s: ColorSpace) -> (Double, Double, Double) { s.range == .full ? (0, 255, 255) : (16, 219, 224) }
        let (ay, asy, asc) = offsets(a), (by, bsy, bsc) = offsets(b)
        let y = (Double(c.y) - ay) / asy, pb = (Double(c.u) - 128) / asc, pr = (Double(c.v) - 128) / asc
        let r = y + 2 * (1 - a.matrix.kr) * pr, bl = y + 2 * (1 - a.matrix.kb) * pb
        let g = (y - a.matrix.kr * r - a.matrix.kb * bl) / (1 - a.matrix.kr - a.matrix.kb)
        let y2 = b.matrix.kr * r + (1 - b.matrix.kr - b.matrix.kb) * g + b.matrix.kb * bl
        let pb2 = (bl - y2) / (2 * (1 - b.matrix.kb)), pr2 = (r - y2) / (2 * (1 - b.matrix.kr))
        func clamp(_ v: Double) -> Double { min(max(v, 0), 255) }
        return (clamp(by + bsy * y2), clamp(128 + bsc * pb2), clamp(128 + bsc * pr2))
    }

    @Test func everyPairIsWithinOneOfTheExactTransform() {
        for a in Self.spaces {
            for b in Self.spaces {
                let transform = ColorTransform(from: a, to: b)
                for y in stride(from: 0, through: 255, by: 15) {
                    for u in stride(from: 0, through: 255, by: 17) {
                        for v in stride(from: 0, through: 255, by: 17) {
                            let input = YUVColor(y: UInt8(y), u: UInt8(u), v: UInt8(v))
                            let got = transform.apply(input), want = Self.reference(input, a, b)
                            #expect(abs(Double(got.y) - want.0) <= 1 && abs(Double(got.u) - want.1) <= 1 && abs(Double(got.v) - want.2) <= 1,
                                    "\(a) → \(b) \(input): \(got) vs \(want)")
                        }
                    }
                }
            }
        }
    }

    @Test func samePairIsTheIdentity() {
        for space in Self.spaces {
            let transform = ColorTransform(from: space, to: space)
            #expect(transform.isIdentity)
            for value in [0, 16, 128, 235, 255] {
                let c = YUVColor(y: UInt8(value), u: UInt8(255 - value), v: UInt8(value))
                #expect(transform.apply(c) == c)
            }
        }
    }

    @Test func limitedToFullStretchesLuma() {
        let transform = ColorTransform(from: .bt709Limited, to: .bt709Full)
        #expect(transform.apply(YUVColor(y: 16, u: 128, v: 128)) == YUVColor(y: 0, u: 128, v: 128))
        #expect(transform.apply(YUVColor(y: 235, u: 128, v: 128)) == YUVColor(y: 255, u: 128, v: 128))
        #expect(transform.apply(YUVColor(y: 126, u: 240, v: 16)) == YUVColor(y: 128, u: 255, v: 0))
    }

    @Test(arguments: [PixelFormat.nv12, .i420])
    func framesUseTheChromaOfTheirBlockAndMayBeConvertedInPlace(format: PixelFormat) {
        let source = TestImage(format, 9, 7, seed: 18)
        let transform = ColorTransform(from: .bt601Limited, to: .bt709Full)
        let output = TestImage(format, 9, 7)
        transform.apply(source.frame, into: output.frame)
        let (uPlane, vPlane, vChannel) = format == .nv12 ? (1, 1, 1) : (1, 2, 0)
        for y in 0..<7 {
            for x in 0..<9 {
                let input = YUVColor(y: source.sample(0, x, y), u: source.sample(uPlane, x / 2, y / 2),
                                     v: source.sample(vPlane, x / 2, y / 2, vChannel))
                let converted = transform.apply(input)
                #expect(output.sample(0, x, y) == converted.y)
                #expect(output.sample(uPlane, x / 2, y / 2) == converted.u)
                #expect(output.sample(vPlane, x / 2, y / 2, vChannel) == converted.v)
            }
        }
        let inPlace = source.copy()
        transform.apply(inPlace.frame, into: inPlace.frame)
        let same = inPlace.bytes == output.bytes.enumerated().map { index, byte in
            // Padding bytes are not part of the picture: the in-place copy keeps the source's.
            isPicture(index, layout: output.layout) ? byte : source.bytes[index]
        }
        #expect(same)
    }

    func isPicture(_ index: Int, layout: FrameLayout) -> Bool {
        for plane in (0..<layout.format.planeCount).reversed() where index >= layout.offsets[plane] {
            let size = layout.format.planeSize(plane, width: layout.width, height: layout.height)
            let offset = index - layout.offsets[plane]
            return offset / layout.strides[plane] < size.height
                && offset % layout.strides[plane] < size.width * layout.format.bytesPerPixel(plane: plane)
        }
        return false
    }
}
