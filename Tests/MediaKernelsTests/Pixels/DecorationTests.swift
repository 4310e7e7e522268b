// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct DecorationTests {
    static func div255(_ v: Int) -> Int { (v + 128 + ((v + 128) >> 8)) >> 8 }

    /// Main picture luma 50 / chroma 100, PiP luma 200 / chroma 60, so every sample says
    /// where it came from.
    static func scene(_ format: PixelFormat, pip size: PixelSize) -> (main: TestImage, pip: TestImage) {
        let main = TestImage(format, 64, 48), pip = TestImage(format, size.width, size.height)
        main.paint { plane, _, _, c in format.isYUV ? (plane == 0 ? 50 : 100) : (c == 3 ? 255 : 50) }
        pip.paint { plane, _, _, c in format.isYUV ? (plane == 0 ? 200 : 60) : (c == 3 ? 255 : 200) }
        return (main, pip)
    }

    @Test func borderIsDrawnInsideThePipRectangle() {
        let (main, pip) = Self.scene(.nv12, pip: PixelSize(width: 20, height: 16))
        let style = PipStyle(borderWidth: 3, borderColor: .white)
        PipRenderer(format: .nv12, source: pip.size, size: pip.size, style: style, colorSpace: .screenCapture)
            .draw(pip.frame, into: main.frame, at: PixelPoint(x: 10, y: 8))
        // Full-range white is Y 255, chroma 128.
        for (x, y) in [(10, 8), (12, 10), (29, 23), (27, 15), (19, 8), (10, 20)] { #expect(main.sample(0, x, y) == 255, "(\(x),\(y))") }
        for (x, y) in [(13, 11), (26, 20), (19, 15)] { #expect(main.sample(0, x, y) == 200, "(\(x),\(y))") }
        for (x, y) in [(9, 8), (30, 8), (10, 7), (10, 24)] { #expect(main.sample(0, x, y) == 50, "(\(x),\(y))") }
        // Chroma (6, 5) covers luma (12…13, 10…11): three border pixels, one picture pixel,
        // so picture weight round(255/4) = 64 and border weight 191.
        let picture = 64, border = 191
        #expect(Int(main.sample(1, 6, 5, 0)) == Self.div255(60 * picture + 128 * border))
        #expect(main.sample(1, 5, 4, 1) == 128)
        #expect(main.sample(1, 8, 8, 0) == 60)
    }

    @Test(arguments: [PixelFormat.nv12, .i420, .rgba, .bgra])
    func hardRoundedCornersKeepTheMainPicture(format: PixelFormat) {
        let (main, pip) = Self.scene(format, pip: PixelSize(width: 32, height: 24))
        let radius = 8.0
        PipRenderer(format: format, source: pip.size, size: pip.size, style: PipStyle(cornerRadius: radius, antialiased: false))
            .draw(pip.frame, into: main.frame, at: PixelPoint(x: 16, y: 12))
        // Inside the top-left corner square, a pixel belongs to the PiP when its centre is
        // within `radius` of the corner circle's centre (8, 8).
        for y in 0..<8 {
            for x in 0..<8 {
                let dx = Double(x) + 0.5 - radius, dy = Double(y) + 0.5 - radius
                let inside = (dx * dx + dy * dy).squareRoot() <= radius
                #expect(main.sample(0, 16 + x, 12 + y) == (inside ? 200 : 50), "\(format) (\(x),\(y))")
            }
        }
        // Mirrored in the bottom-right corner; straight edges untouched.
        #expect(main.sample(0, 16 + 31, 12 + 23) == 50)
        #expect(main.sample(0, 16 + 31, 12 + 12) == 200)
        #expect(main.sample(0, 16 + 15, 12) == 200)
    }

    @Test func antialiasedCornerMixesByCoverage() {
        let (main, pip) = Self.scene(.i420, pip: PixelSize(width: 32, height: 24))
        let radius = 10.0
        PipRenderer(format: .i420, source: pip.size, size: pip.size, style: PipStyle(cornerRadius: radius))
            .draw(pip.frame, into: main.frame, at: PixelPoint(x: 0, y: 0))
        func coverage(_ x: Int, _ y: Int) -> Int {
            let dx = max(radius - (Double(x) + 0.5), 0), dy = max(radius - (Double(y) + 0.5), 0)
            let distance = (dx * dx + dy * dy).squareRoot() - radius
            return Int((min(max(0.5 - distance, 0), 1) * 255).rounded())
        }
        var partial = 0
        for y in 0..<10 {
            for x in 0..<10 {
                let c = coverage(x, y)
                if c > 0 && c < 255 { partial += 1 }
                #expect(Int(main.sample(0, x, y)) == Self.div255(200 * c + 50 * (255 - c)), "(\(x),\(y)) coverage \(c)")
            }
        }
        #expect(partial >= 8)
        // Chroma (0, 0) averages the coverage of luma (0…1, 0…1).
        let chromaCoverage = (coverage(0, 0) + coverage(1, 0) + coverage(0, 1) + coverage(1, 1) + 2) / 4
        #expect(Int(main.sample(1, 0, 0)) == Self.div255(60 * chromaCoverage + 100 * (255 - chromaCoverage)))
    }

    @Test func alphaAppliesToBorderAndPicture() {
        let (main, pip) = Self.scene(.nv12, pip: PixelSize(width: 20, height: 16))
        PipRenderer(format: .nv12, source: pip.size, size: pip.size, style: PipStyle(borderWidth: 2, borderColor: .white))
            .draw(pip.frame, into: main.frame, at: PixelPoint(x: 0, y: 0), alpha: 0.5)
        // Fully covered runs use compositor's formula with a = 127.
        #expect(Int(main.sample(0, 10, 8)) == (50 * 129 + 200 * 127) >> 8)
        #expect(Int(main.sample(0, 0, 8)) == (50 * 129 + 255 * 127) >> 8)
        #expect(abs(Int(main.sample(0, 0, 8)) - (50 + 255) / 2) <= 1)
    }

    @Test func scaledDecoratedPipStaysInsideItsRectangle() {
        let main = TestImage(.nv12, 96, 64), pip = TestImage(.nv12, 120, 80, seed: 16)
        main.paint { _, _, _, _ in 9 }
        let renderer = PipRenderer(format: .nv12, source: pip.size, size: PixelSize(width: 40, height: 26),
                                   style: PipStyle(borderWidth: 2, borderColor: .black, cornerRadius: 6))
        renderer.draw(pip.frame, into: main.frame, at: PixelPoint(x: 31, y: 21))
        // Origin snaps to (32, 22); the rectangle is 40×26.
        for y in 0..<64 {
            for x in 0..<96 where !(32..<72).contains(x) || !(22..<48).contains(y) {
                #expect(main.sample(0, x, y) == 9, "(\(x),\(y))")
            }
        }
        #expect(main.sample(0, 52, 22) == 0)
        #expect(main.sample(0, 32, 22) == 9)
    }
}
