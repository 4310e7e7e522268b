// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct ScalerTests {
    static func scaled(_ source: TestImage, to size: PixelSize, _ method: ScalingMethod,
                       siting: ChromaSiting = .center) -> TestImage {
        let output = TestImage(source.format, size.width, size.height)
        Scaler(from: source.size, to: size, format: source.format, method: method, chromaSiting: siting)
            .scale(source.frame, into: output.frame)
        return output
    }

    /// Double-precision reference of one plane: bilinear at sample centres, or the box
    /// average of the covered source area. Ratios are the luma ones (centred chroma keeps
    /// the luma geometry), so they are passed in.
    static func reference(_ plane: PixelPlane, channel: Int, x: Int, y: Int, rx: Double, ry: Double, area: Bool) -> Double {
        func value(_ sx: Int, _ sy: Int) -> Double { Double(plane.pixel(x: sx, y: sy)[channel]) }
        if area {
            var sum = 0.0, weight = 0.0
            let x0 = Double(x) * rx, x1 = Double(x + 1) * rx, y0 = Double(y) * ry, y1 = Double(y + 1) * ry
            for sy in Int(y0)..<min(Int(y1.rounded(.up)), plane.height) {
                let wy = min(y1, Double(sy + 1)) - max(y0, Double(sy))
                for sx in Int(x0)..<min(Int(x1.rounded(.up)), plane.width) {
                    let w = wy * (min(x1, Double(sx + 1)) - max(x0, Double(sx)))
                    sum += w * value(sx, sy)
                    weight += w
                }
            }
            return sum / weight
        }
        func axis(_ j: Int, _ ratio: Double, _ count: Int) -> (Int, Double) {
            let p = min(max((Double(j) + 0.5) * ratio - 0.5, 0), Double(count - 1))
            let i = min(Int(p), count - 2)
            return (i, p - Double(i))
        }
        let (ix, fx) = axis(x, rx, plane.width), (iy, fy) = axis(y, ry, plane.height)
        let top = value(ix, iy) * (1 - fx) + value(ix + 1, iy) * fx
        let bottom = value(ix, iy + 1) * (1 - fx) + value(ix + 1, iy + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    @Test(arguments: PixelFormat.allCases)
    func flatPicturesStayFlat(format: PixelFormat) {
        let source = TestImage(format, 37, 23)
        source.paint { _, _, _, _ in 77 }
        for method in ScalingMethod.allCases {
            for size in [PixelSize(width: 11, height: 9), PixelSize(width: 80, height: 50), PixelSize(width: 37, height: 5)] {
                let output = Self.scaled(source, to: size, method)
                for index in 0..<format.planeCount {
                    let plane = output.frame.plane(index)
                    for y in 0..<plane.height { for x in 0..<plane.rowBytes { #expect(plane.row(y)[x] == 77) } }
                }
            }
        }
    }

    @Test func bilinearDoublingOfTwoPixels() {
        let source = TestImage(.i420, 2, 1)
        source.set(0, 0, 0, 0, 0)
        source.set(0, 1, 0, 0, 100)
        // Output centres map to x = −0.25, 0.25, 0.75, 1.25, clamped to the ends.
        let output = Self.scaled(source, to: PixelSize(width: 4, height: 1), .bilinear)
        #expect((0..<4).map { output.sample(0, $0, 0) } == [0, 25, 75, 100])
    }

    @Test(arguments: PixelFormat.allCases)
    func bilinearAndAreaMatchTheDoubleReference(format: PixelFormat) {
        let source = TestImage(format, 96, 54, seed: 11)
        for (method, size) in [(ScalingMethod.bilinear, PixelSize(width: 64, height: 40)), (.bilinear, PixelSize(width: 150, height: 77)),
                               (.area, PixelSize(width: 36, height: 20)), (.area, PixelSize(width: 32, height: 18))] {
            let output = Self.scaled(source, to: size, method)
            for index in 0..<format.planeCount {
                let input = source.frame.plane(index), plane = output.frame.plane(index)
                for y in 0..<plane.height {
                    for x in 0..<plane.width {
                        for c in 0..<plane.bytesPerPixel {
                            let expected = Self.reference(input, channel: c, x: x, y: y,
                                                          rx: Double(source.size.width) / Double(size.width),
                                                          ry: Double(source.size.height) / Double(size.height), area: method == .area)
                            #expect(abs(Double(plane.pixel(x: x, y: y)[c]) - expected) <= 1,
                                    "\(format) \(method) \(size) plane \(index) (\(x),\(y))")
                        }
                    }
                }
            }
        }
    }

    @Test func automaticSwitchesToAreaBeyondTwoTimes() {
        let source = TestImage(.nv12, 90, 60, seed: 12)
        let third = Self.scaled(source, to: PixelSize(width: 30, height: 20), .automatic).bytes
            == Self.scaled(source, to: PixelSize(width: 30, height: 20), .area).bytes
        let twoThirds = Self.scaled(source, to: PixelSize(width: 60, height: 40), .automatic).bytes
            == Self.scaled(source, to: PixelSize(width: 60, height: 40), .bilinear).bytes
        #expect(third && twoThirds)
    }

    /// Luma ramp Y = 2x with chroma sampled on the same ramp at its siting (centre: 4k + 1);
    /// linear interpolation keeps ramps, so scaled chroma must still equal the scaled luma
    /// ramp at the chroma position, i.e. the mean of its two luma columns.
    @Test func chromaStaysOnItsLumaBlock() {
        let source = TestImage(.nv12, 120, 8)
        source.paint { plane, x, _, c in plane == 0 ? UInt8(x * 2) : c == 0 ? UInt8(4 * x + 1) : 128 }
        let output = Self.scaled(source, to: PixelSize(width: 50, height: 4), .bilinear)
        for k in 2..<23 {
            let luma = (Double(output.sample(0, 2 * k, 1)) + Double(output.sample(0, 2 * k + 1, 1))) / 2
            #expect(abs(Double(output.sample(1, k, 1, 0)) - luma) <= 1, "chroma \(k)")
        }
        // Co-sited (MPEG-2) chroma: the ramp value at luma 2k.
        source.paint { plane, x, _, c in plane == 0 ? UInt8(x * 2) : c == 0 ? UInt8(4 * x) : 128 }
        let cosited = Self.scaled(source, to: PixelSize(width: 50, height: 4), .bilinear, siting: .mpeg2)
        for k in 2..<23 { #expect(abs(Int(cosited.sample(1, k, 1, 0)) - Int(cosited.sample(0, 2 * k, 1))) <= 1, "chroma \(k)") }
    }

    @Test func videoscaleCompatibleTakesCornerAlignedColumns() {
        // 10 → 4 columns: x = j·9/3 = 0, 3, 6, 9, whole samples.
        let source = TestImage(.rgba, 10, 1, seed: 13)
        let output = Self.scaled(source, to: PixelSize(width: 4, height: 1), .videoscaleCompatible)
        for (j, x) in [0, 3, 6, 9].enumerated() {
            for c in 0..<4 { #expect(output.sample(0, j, 0, c) == source.sample(0, x, 0, c)) }
        }
    }

    @Test(arguments: [PixelFormat.nv12, .bgra])
    func clippedScalingWritesTheVisiblePartOnly(format: PixelFormat) {
        let source = TestImage(format, 64, 36, seed: 14)
        // Opaque, so that `draw` (which honours packed alpha) is a plain copy.
        if format == .bgra { for y in 0..<36 { for x in 0..<64 { source.set(0, x, y, 3, 255) } } }
        let size = PixelSize(width: 24, height: 14)
        let whole = Self.scaled(source, to: size, .automatic)
        let main = TestImage(format, 40, 30, seed: 15)
        let before = main.copy()
        Scaler(from: source.size, to: size, format: format).scale(source.frame, into: main.frame, at: PixelPoint(x: -6, y: 20))
        let expected = before.copy()
        expected.frame.draw(whole.frame, at: PixelPoint(x: -6, y: 20))
        let same = main.bytes == expected.bytes
        #expect(same)
    }
}
