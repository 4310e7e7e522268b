// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

/// Unscaled placement against a plain per-sample reference of compositor's rules, which
/// were checked bit-exact against `compositor` (GStreamer 1.22, max-threads 1 and auto) with
/// NV12, I420, RGBA and BGRA, 320×240 main, 60×36 / 61×37 PiPs at (100,56), (101,57),
/// (-3,-5), (281,221), (290,230), alpha 1 and 0.5.
@Suite struct PlacementTests {
    /// compositor's rule written the slow, obvious way: snap the origin up to even in 4:2:0,
    /// then every luma pixel of the PiP inside the frame is copied, and every chroma sample
    /// (cx, cy) with 2cx, 2cy inside the PiP's snapped luma rectangle (and the frame).
    static func reference(main: TestImage, pip: TestImage, at position: PixelPoint) -> [UInt8] {
        let result = main.copy()
        let format = main.format
        let origin = format.isYUV ? PixelPoint(x: (position.x + 1) & ~1, y: (position.y + 1) & ~1) : position
        for index in 0..<format.planeCount {
            let shift = format.subsampling(plane: index)
            let target = result.frame.plane(index), source = pip.frame.plane(index)
            for sy in 0..<source.height {
                for sx in 0..<source.width {
                    let lumaX = origin.x + (sx << shift), lumaY = origin.y + (sy << shift)
                    guard lumaX >= 0, lumaY >= 0, lumaX < main.size.width, lumaY < main.size.height else { continue }
                    for c in 0..<source.bytesPerPixel {
                        let value = source.pixel(x: sx, y: sy)[c]
                        target.pixel(x: lumaX >> shift, y: lumaY >> shift)[c] = format.isYUV || c < 3 ? value : 255
                    }
                }
            }
        }
        return result.bytes
    }

    static let positions = [PixelPoint(x: 100, y: 56), PixelPoint(x: 101, y: 57), PixelPoint(x: 0, y: 0),
                            PixelPoint(x: -3, y: -5), PixelPoint(x: -2, y: 7), PixelPoint(x: 281, y: 221),
                            PixelPoint(x: 290, y: 230), PixelPoint(x: 319, y: 239), PixelPoint(x: 400, y: 10)]

    @Test(arguments: PixelFormat.allCases)
    func opaqueCopyMatchesReference(format: PixelFormat) {
        for (width, height) in [(60, 36), (61, 37), (1, 1), (2, 3)] {
            for position in Self.positions {
                let main = TestImage(format, 320, 240, seed: 1)
                let pip = TestImage(format, width, height, seed: 2)
                if !format.isYUV { pip.paint { _, x, y, c in c == 3 ? 255 : UInt8(truncatingIfNeeded: x &* 31 &+ y &* 7 &+ c) } }
                let expected = Self.reference(main: main, pip: pip, at: position)
                main.frame.draw(pip.frame, at: position)
                let same = main.bytes == expected
                #expect(same, "\(format) \(width)x\(height) at \(position)")
            }
        }
    }

    @Test func oddPositionRoundsUpAndOddWidthTakesTheNextChromaColumn() {
        let main = TestImage(.nv12, 320, 240, seed: 3), pip = TestImage(.nv12, 61, 37, seed: 4)
        let before = main.copy()
        main.frame.draw(pip.frame, at: PixelPoint(x: 101, y: 57))
        // Luma: origin (102, 58); column 101 and row 57 keep the main picture.
        #expect(main.sample(0, 101, 60) == before.sample(0, 101, 60))
        #expect(main.sample(0, 102, 58) == pip.sample(0, 0, 0))
        #expect(main.sample(0, 162, 94) == pip.sample(0, 60, 36))
        // Luma column 163 (just right of the PiP) keeps its luma...
        #expect(main.sample(0, 163, 60) == before.sample(0, 163, 60))
        // ...but its chroma (chroma column 81 = PiP chroma column 30) comes from the PiP.
        #expect(main.sample(1, 81, 30, 0) == pip.sample(1, 30, 1, 0))
        #expect(main.sample(1, 81, 30, 1) == pip.sample(1, 30, 1, 1))
        // Same below: chroma row 47 covers luma rows 94 (PiP) and 95 (main).
        #expect(main.sample(0, 110, 95) == before.sample(0, 110, 95))
        #expect(main.sample(1, 55, 47, 1) == pip.sample(1, 4, 18, 1))
        #expect(main.sample(1, 82, 30, 0) == before.sample(1, 82, 30, 0))
    }

    @Test func negativeOddPositionRoundsTowardsZero() {
        let placement = Placement(format: .i420, frame: PixelSize(width: 320, height: 240),
                                  origin: PixelPoint(x: -3, y: -1), content: PixelSize(width: 61, height: 37))
        #expect(placement.origin == PixelPoint(x: -2, y: 0))
        #expect(placement.visible == PixelRect(x: 0, y: 0, width: 59, height: 37))
        #expect(placement.span(plane: 1) == PlaneSpan(destinationX: 0, destinationY: 0, sourceX: 1, sourceY: 0, width: 30, height: 19))
    }

    @Test func packedFormatsDoNotSnap() {
        let placement = Placement(format: .bgra, frame: PixelSize(width: 320, height: 240),
                                  origin: PixelPoint(x: 101, y: -3), content: PixelSize(width: 61, height: 37))
        #expect(placement.visible == PixelRect(x: 101, y: 0, width: 61, height: 34))
        #expect(placement.span(plane: 0).sourceY == 3)
    }

    @Test func croppedViewWritesIntoTheFrame() {
        let main = TestImage(.nv12, 64, 48)
        let view = main.frame.cropped(to: PixelRect(x: 9, y: 5, width: 11, height: 7))
        #expect(view.size == PixelSize(width: 11, height: 7))
        #expect(view.plane(1).width == 6 && view.plane(1).height == 4)
        view.fill(with: .white, space: .screenCapture)
        #expect(main.sample(0, 10, 6) == 255 && main.sample(0, 9, 6) == 0 && main.sample(0, 21, 6) == 0)
    }
}
