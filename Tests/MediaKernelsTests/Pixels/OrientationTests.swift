// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct OrientationTests {
    /// Source  a b c   (a = 1 … f = 6), turned by hand; these agree with what
    ///         d e f   `videoflip video-direction=auto` produced for each tag (GStreamer 1.22).
    static let expected: [Orientation: [[UInt8]]] = [
        .rotate0: [[1, 2, 3], [4, 5, 6]],
        .rotate90: [[4, 1], [5, 2], [6, 3]],
        .rotate180: [[6, 5, 4], [3, 2, 1]],
        .rotate270: [[3, 6], [2, 5], [1, 4]],
        .flipRotate0: [[3, 2, 1], [6, 5, 4]],
        .flipRotate90: [[6, 3], [5, 2], [4, 1]],
        .flipRotate180: [[4, 5, 6], [1, 2, 3]],
        .flipRotate270: [[1, 4], [2, 5], [3, 6]],
    ]

    @Test(arguments: Orientation.allCases)
    func indexMapping(orientation: Orientation) throws {
        let source = TestImage(.rgba, 3, 2)
        source.paint { _, x, y, c in UInt8(y * 3 + x + 1) &+ UInt8(c * 16) }
        let outputSize = orientation.outputSize(for: source.size)
        let output = TestImage(.rgba, outputSize.width, outputSize.height)
        source.frame.rotated(orientation, into: output.frame)
        let rows = try #require(Self.expected[orientation])
        #expect(outputSize == PixelSize(width: rows[0].count, height: rows.count))
        for (y, row) in rows.enumerated() {
            for (x, value) in row.enumerated() {
                for c in 0..<4 { #expect(output.sample(0, x, y, c) == value &+ UInt8(c * 16), "\(orientation) (\(x),\(y))") }
            }
        }
        #expect(Orientation(tag: orientation.rawValue) == orientation)
    }

    /// Every plane turns on its own grid: output sample (x, y) of each plane is the source
    /// sample `sourcePosition` names in that plane, also for odd sizes.
    @Test(arguments: [PixelFormat.nv12, .i420])
    func chromaPlanesTurnWithTheirLuma(format: PixelFormat) {
        for (width, height) in [(6, 4), (7, 5), (64, 34)] {
            let source = TestImage(format, width, height, seed: 17)
            for orientation in Orientation.allCases {
                let size = orientation.outputSize(for: source.size)
                let output = TestImage(format, size.width, size.height)
                source.frame.rotated(orientation, into: output.frame)
                for index in 0..<format.planeCount {
                    let plane = output.frame.plane(index)
                    let planeSize = PixelSize(width: plane.width, height: plane.height)
                    for y in 0..<plane.height {
                        for x in 0..<plane.width {
                            let at = orientation.sourcePosition(x: x, y: y, output: planeSize)
                            for c in 0..<plane.bytesPerPixel {
                                #expect(plane.pixel(x: x, y: y)[c] == source.sample(index, at.x, at.y, c), "\(format) \(orientation) \(width)x\(height)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func replayKitOrientations() {
        #expect(Orientation(exif: 1) == .rotate0)
        #expect(Orientation(exif: 3) == .rotate180)
        #expect(Orientation(exif: 6) == .rotate90)
        #expect(Orientation(exif: 8) == .rotate270)
        #expect(Orientation(exif: 5) == .flipRotate270)
        #expect(Orientation(exif: 0) == nil)
    }

    @Test func portraitIntoLandscapeIsPillarboxed() {
        // 1080×1920 into 1920×1080: height 1080, width 1080·1080/1920 = 607.5 → 608.
        #expect(PixelRect.aspectFit(PixelSize(width: 1080, height: 1920), in: PixelSize(width: 1920, height: 1080), alignment: 2)
            == PixelRect(x: 656, y: 0, width: 608, height: 1080))
        // 720×1280 into 1280×720: width 405 → 406 (even), offset (1280 − 406)/2 = 437 → 436.
        #expect(PixelRect.aspectFit(PixelSize(width: 720, height: 1280), in: PixelSize(width: 1280, height: 720), alignment: 2)
            == PixelRect(x: 436, y: 0, width: 406, height: 720))
        #expect(PixelRect.aspectFit(PixelSize(width: 720, height: 1280), in: PixelSize(width: 1280, height: 720))
            == PixelRect(x: 437, y: 0, width: 405, height: 720))
        // Landscape into portrait is letterboxed.
        #expect(PixelRect.aspectFit(PixelSize(width: 1920, height: 1080), in: PixelSize(width: 1080, height: 1920), alignment: 2)
            == PixelRect(x: 0, y: 656, width: 1080, height: 608))
        // Same aspect fills.
        #expect(PixelRect.aspectFit(PixelSize(width: 640, height: 360), in: PixelSize(width: 1280, height: 720))
            == PixelRect(x: 0, y: 0, width: 1280, height: 720))
    }
}
