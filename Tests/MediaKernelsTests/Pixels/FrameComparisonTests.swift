// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

/// The test replaykitsrc's screen-location drops repeated pictures by: every sample counts,
/// padding does not.
@Suite struct FrameComparisonTests {
    @Test(arguments: [PixelFormat.nv12, .i420, .rgba])
    func oneSampleAnywhereMakesADifferentPicture(format: PixelFormat) {
        let width = 61, height = 37
        let first = TestImage(format, width, height, seed: 7), second = TestImage(format, width, height, seed: 7)
        #expect(first.frame.hasSamePixels(as: second.frame))
        var changed = 0
        for plane in 0..<format.planeCount {
            let view = first.frame.plane(plane)
            for (x, y) in [(0, 0), (view.width - 1, view.height - 1), (view.width / 2, view.height / 3)] {
                let original = second.sample(plane, x, y)
                second.set(plane, x, y, 0, original &+ 1)
                #expect(!first.frame.hasSamePixels(as: second.frame), "plane \(plane) (\(x), \(y))")
                second.set(plane, x, y, 0, original)
                changed += 1
            }
        }
        #expect(changed == format.planeCount * 3)
        #expect(first.frame.hasSamePixels(as: second.frame))
    }

    @Test func paddingIsNotPicture() {
        // 61 wide: luma rows are padded to 64 bytes, chroma rows (31 pairs, 62 bytes) to 64.
        let first = TestImage(.nv12, 61, 37, seed: 3), second = TestImage(.nv12, 61, 37, seed: 3)
        let luma = second.frame.plane(0), chroma = second.frame.plane(1)
        #expect(luma.stride > luma.rowBytes && chroma.stride > chroma.rowBytes)
        for row in 0..<luma.height { luma.row(row)[luma.rowBytes] &+= 1 }
        for row in 0..<chroma.height { chroma.row(row)[chroma.rowBytes] &+= 1 }
        #expect(first.frame.hasSamePixels(as: second.frame))
        #expect(!first.frame.hasSamePixels(as: TestImage(.nv12, 60, 37, seed: 3).frame), "another size")
    }
}
