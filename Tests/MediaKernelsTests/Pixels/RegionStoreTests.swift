// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

/// The helpers pipcompositor needs around the PiP kernels: saving and restoring what lies
/// under a PiP, whole-frame copies, compositor's checker background and packed alpha.
@Suite struct RegionStoreTests {
    @Test(arguments: PixelFormat.allCases)
    func restoringUndoesDrawingOverSavedRectangles(format: PixelFormat) {
        let main = TestImage(format, 64, 48, seed: 1)
        let pristine = main.copy()
        let store = RegionStore()
        // Odd positions and sizes, an overlap, and a rectangle partly outside the frame.
        let rects = [PixelRect(x: 5, y: 3, width: 11, height: 9), PixelRect(x: 12, y: 8, width: 20, height: 15),
                     PixelRect(x: 55, y: 41, width: 20, height: 20), PixelRect(x: 100, y: 100, width: 4, height: 4)]
        for rect in rects { store.save(rect, of: main.frame) }
        #expect(store.rectangles.count == 3, "the rectangle outside the frame is not kept")
        let picture = TestImage(format, 20, 20, seed: 2)
        for rect in rects { main.frame.fill(rect, with: RGBColor(hex: 0x102030), space: .bt709Full) }
        main.frame.draw(picture.frame, at: PixelPoint(x: 55, y: 41))
        #expect(main.bytes != pristine.bytes)
        store.restore(into: main.frame)
        #expect(main.bytes == pristine.bytes)
    }

    /// Rows wide enough for the vector copies (a 480-pixel PiP row is 480 bytes in each NV12
    /// plane), at an odd position, restored byte for byte.
    @Test(arguments: PixelFormat.allCases)
    func wideRectanglesAreRestoredExactly(format: PixelFormat) {
        let main = TestImage(format, 640, 40, seed: 11)
        let pristine = main.copy()
        let store = RegionStore()
        let rect = PixelRect(x: 77, y: 5, width: 481, height: 27)
        store.save(rect, of: main.frame)
        // A TestImage frees its buffer when it goes: kept alive for as long as its frame is read.
        let picture = TestImage(format, 481, 27, seed: 12)
        withExtendedLifetime(picture) { main.frame.draw(picture.frame, at: rect.origin) }
        let drawn = main.bytes != pristine.bytes
        store.restore(into: main.frame)
        let restored = main.bytes == pristine.bytes
        #expect(drawn && restored, "\(format): drawn \(drawn), restored \(restored)")
    }

    @Test func storageIsReusedOnceTheGeometryIsSteady() {
        let main = TestImage(.nv12, 64, 48, seed: 3)
        let store = RegionStore()
        for round in 0..<3 {
            store.removeAll()
            #expect(store.isEmpty)
            store.save(PixelRect(x: 2 * round, y: 2, width: 16, height: 8), of: main.frame)
            #expect(store.rectangles == [PixelRect(x: 2 * round, y: 2, width: 16, height: 8)])
        }
    }

    @Test(arguments: PixelFormat.allCases)
    func copyPixelsCopiesEveryByteAcrossStrides(format: PixelFormat) {
        let source = TestImage(format, 37, 21, seed: 4)
        let target = TestImage(format, 37, 21)
        target.frame.copyPixels(from: source.frame)
        for index in 0..<format.planeCount {
            let plane = source.frame.plane(index)
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    for c in 0..<plane.bytesPerPixel { #expect(target.sample(index, x, y, c) == source.sample(index, x, y, c)) }
                }
            }
        }
    }

    /// compositor's fill_checker: tab[((y & 8) >> 3) + ((x & 8) >> 3)] with tab = {80, 160, 80, 160}.
    @Test(arguments: PixelFormat.allCases)
    func checkerFollowsCompositorsPattern(format: PixelFormat) {
        let image = TestImage(format, 40, 30, seed: 5)
        let before = image.copy()
        let rect = PixelRect(x: 6, y: 4, width: 20, height: 14)
        image.frame.fillChecker(rect)
        let table: [UInt8] = [80, 160, 80, 160]
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY
                let expected = table[((y & 8) >> 3) + ((x & 8) >> 3)]
                if format.isYUV {
                    #expect(image.sample(0, x, y) == (inside ? expected : before.sample(0, x, y)))
                } else {
                    for c in 0..<4 {
                        #expect(image.sample(0, x, y, c) == (inside ? (c == 3 ? 255 : expected) : before.sample(0, x, y, c)))
                    }
                }
            }
        }
        if format.isYUV {
            #expect(image.sample(1, 3, 2) == 128 && image.sample(1, 12, 8) == 128)
            #expect(image.sample(1, 2, 2) == before.sample(1, 2, 2))
        }
    }

    @Test func packedColoursCarryTheirAlpha() {
        let colour = RGBColor(red: 1, green: 2, blue: 3)
        #expect(PlaneColor(colour, alpha: 0, format: .rgba, space: .screenCapture).bytes == [[1, 2, 3, 0]])
        #expect(PlaneColor(colour, alpha: 7, format: .bgra, space: .screenCapture).bytes == [[3, 2, 1, 7]])
        #expect(PlaneColor(colour, alpha: 0, format: .nv12, space: .screenCapture).bytes
                == PlaneColor(colour, format: .nv12, space: .screenCapture).bytes)
    }
}
