// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct FillTests {
    @Test func blackAndWhitePerRange() {
        for matrix in ColorMatrix.allCases {
            #expect(RGBColor.black.yuv(in: ColorSpace(matrix: matrix, range: .full)) == YUVColor(y: 0, u: 128, v: 128))
            #expect(RGBColor.black.yuv(in: ColorSpace(matrix: matrix, range: .limited)) == YUVColor(y: 16, u: 128, v: 128))
            #expect(RGBColor.white.yuv(in: ColorSpace(matrix: matrix, range: .full)) == YUVColor(y: 255, u: 128, v: 128))
            #expect(RGBColor.white.yuv(in: ColorSpace(matrix: matrix, range: .limited)) == YUVColor(y: 235, u: 128, v: 128))
        }
    }

    @Test func pureRedFollowsTheMatrixWeights() {
        // Red: Y = Kr, Pb = −Kr / (2(1−Kb)), Pr = 0.5.
        for (matrix, kr, kb) in [(ColorMatrix.bt601, 0.299, 0.114), (.bt709, 0.2126, 0.0722)] {
            let pb = -kr / (2 * (1 - kb))
            let limited = RGBColor(red: 255, green: 0, blue: 0).yuv(in: ColorSpace(matrix: matrix, range: .limited))
            #expect(limited.y == UInt8((16 + 219 * kr).rounded()))
            #expect(limited.u == UInt8((128 + 224 * pb).rounded()))
            #expect(limited.v == 240)
            let full = RGBColor(red: 255, green: 0, blue: 0).yuv(in: ColorSpace(matrix: matrix, range: .full))
            #expect(full.y == UInt8((255 * kr).rounded()))
            #expect(full.v == 255) // 128 + 127.5 rounds up, then clamps
        }
    }

    @Test(arguments: PixelFormat.allCases)
    func fillsOnlyTheSnappedRectangle(format: PixelFormat) {
        let image = TestImage(format, 40, 30)
        let colour = RGBColor(hex: 0x3366CC)
        image.frame.fill(PixelRect(x: 5, y: 3, width: 9, height: 7), with: colour, space: .bt709Limited)
        let bytes = PlaneColor(colour, format: format, space: .bt709Limited).bytes
        let start = format.isYUV ? PixelPoint(x: 6, y: 4) : PixelPoint(x: 5, y: 3)
        for index in 0..<format.planeCount {
            let shift = format.subsampling(plane: index)
            let plane = image.frame.plane(index)
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    // Inside when the sample's top-left luma pixel is in the snapped rectangle.
                    let inside = (x << shift) >= start.x && (x << shift) < start.x + 9 && (y << shift) >= start.y && (y << shift) < start.y + 7
                    for c in 0..<plane.bytesPerPixel {
                        #expect(plane.pixel(x: x, y: y)[c] == (inside ? bytes[index][c] : 0), "\(format) plane \(index) (\(x),\(y))")
                    }
                }
            }
        }
    }

    @Test func packedColourOrder() {
        let colour = RGBColor(red: 1, green: 2, blue: 3)
        #expect(PlaneColor(colour, format: .rgba, space: .screenCapture).bytes == [[1, 2, 3, 255]])
        #expect(PlaneColor(colour, format: .bgra, space: .screenCapture).bytes == [[3, 2, 1, 255]])
    }
}

/// The letterbox bars pipcompositor and replaykitsrc's screen-location fill.
@Suite struct BarsTests {
    @Test func barsCoverTheFrameLessThePictureOnce() {
        let frame = PixelRect(x: 0, y: 0, width: 360, height: 640)
        for inner in [PixelRect(x: 0, y: 218, width: 360, height: 202), PixelRect(x: 40, y: 0, width: 280, height: 640),
                      PixelRect(x: 10, y: 20, width: 100, height: 50), frame] {
            let bars = frame.bars(around: inner)
            let all = [bars.top, bars.bottom, bars.left, bars.right, inner]
            var covered = 0
            for y in stride(from: 0, to: 640, by: 7) {
                for x in stride(from: 0, to: 360, by: 5) {
                    let hits = all.filter { !$0.isEmpty && $0.x <= x && x < $0.maxX && $0.y <= y && y < $0.maxY }.count
                    #expect(hits == 1, "(\(x), \(y)) in \(hits) of \(all)")
                    covered += 1
                }
            }
            #expect(covered == 92 * 72)
        }
        #expect(frame.bars(around: PixelRect(x: 0, y: 218, width: 360, height: 202))
            == (PixelRect(x: 0, y: 0, width: 360, height: 218), PixelRect(x: 0, y: 420, width: 360, height: 220),
                PixelRect(x: 0, y: 218, width: 0, height: 202), PixelRect(x: 360, y: 218, width: 0, height: 202)))
    }
}
