// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
@testable import ReplayCast
import Testing

/// Where pictures go, from the pad properties (no pipeline).
@Suite struct PipCompositorGeometryTests {
    let output = PixelSize(width: 1920, height: 1080)
    let camera = PixelSize(width: 1280, height: 720)

    func settings(_ change: (inout PadSettings) -> Void) -> PadSettings {
        var settings = PadSettings()
        change(&settings)
        return settings
    }

    @Test func unscaledByDefaultAtXposYpos() {
        let rect = PipGeometry.pip(settings { $0.xpos = 101; $0.ypos = -7 }, source: camera, output: output, format: .nv12)
        #expect(rect == PixelRect(x: 101, y: -7, width: 1280, height: 720))
    }

    @Test func widthAndHeightScaleAndZeroMeansTheInputsSize() {
        let both = PipGeometry.pip(settings { $0.width = 480; $0.height = 200 }, source: camera, output: output, format: .nv12)
        #expect(both.size == PixelSize(width: 480, height: 200))
        let widthOnly = PipGeometry.pip(settings { $0.width = 480; $0.height = 0 }, source: camera, output: output, format: .nv12)
        #expect(widthOnly.size == PixelSize(width: 480, height: 720))
    }

    @Test func keepAspectRatioCentresInTheBox() {
        let rect = PipGeometry.pip(settings { $0.xpos = 100; $0.ypos = 50; $0.width = 480; $0.height = 480; $0.keepAspectRatio = true },
                                   source: camera, output: output, format: .nv12)
        #expect(rect == PixelRect(x: 100, y: 50 + 105, width: 480, height: 270))
    }

    @Test func scaleIsAFractionOfTheOutputWidthWithTheInputsAspect() {
        let rect = PipGeometry.pip(settings { $0.scale = 0.25; $0.width = 99; $0.height = 99 }, source: camera, output: output,
                                   format: .nv12)
        #expect(rect.size == PixelSize(width: 480, height: 270), "scale wins over width and height")
    }

    @Test func cornerPresetsKeepTheMargin() {
        func at(_ position: PadSettings.Position, margin: Int, format: PixelFormat = .nv12) -> PixelPoint {
            PipGeometry.pip(settings { $0.position = position; $0.margin = margin; $0.width = 480; $0.height = 270 },
                            source: camera, output: output, format: format).origin
        }
        #expect(at(.topLeft, margin: 40) == PixelPoint(x: 40, y: 40))
        #expect(at(.topRight, margin: 40) == PixelPoint(x: 1920 - 480 - 40, y: 40))
        #expect(at(.bottomLeft, margin: 40) == PixelPoint(x: 40, y: 1080 - 270 - 40))
        #expect(at(.bottomRight, margin: 40) == PixelPoint(x: 1400, y: 770))
        // 4:2:0: far edges round down to even (margin 41 becomes 42), RGB keeps the pixel.
        #expect(at(.bottomRight, margin: 41) == PixelPoint(x: 1398, y: 768))
        #expect(at(.bottomRight, margin: 41, format: .rgba) == PixelPoint(x: 1399, y: 769))
        #expect(at(.custom, margin: 41) == PixelPoint(x: 0, y: 0), "custom ignores the margin")
    }

    @Test func mainFillsTheOutputOrIsLetterboxed() {
        let screen = PixelSize(width: 1242, height: 2688)
        #expect(PipGeometry.main(PadSettings(), source: screen, output: output, format: .nv12)
                == PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        let fitted = PipGeometry.main(settings { $0.keepAspectRatio = true }, source: screen, output: output, format: .nv12)
        // 1080 · 1242 / 2688 = 499.0 → 500 (even), centred: (1920 − 500) / 2 = 710.
        #expect(fitted == PixelRect(x: 710, y: 0, width: 500, height: 1080))
        let landscape = PipGeometry.main(settings { $0.keepAspectRatio = true }, source: PixelSize(width: 2688, height: 1242),
                                         output: output, format: .nv12)
        #expect(landscape.width == 1920 && landscape.x == 0 && landscape.height % 2 == 0 && landscape.y % 2 == 0)
    }
}
