// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayKitModel
import Testing

/// An NV12 frame in test-owned memory, with optional padding after each row.
struct TestFrame {
    let width: Int
    let height: Int
    let yStride: Int
    let uvStride: Int
    var luma: [UInt8]
    var chroma: [UInt8]

    init(width: Int, height: Int, padding: Int = 0, fill: UInt8 = 0) {
        self.width = width
        self.height = height
        yStride = width + padding
        uvStride = (width + 1) / 2 * 2 + padding
        luma = [UInt8](repeating: fill, count: yStride * height)
        chroma = [UInt8](repeating: fill, count: uvStride * ((height + 1) / 2))
    }

    mutating func render(_ renderer: ScreenRenderer, frame: UInt32, time: UInt64, barcodeTimestamp: UInt64? = nil) {
        let (yStride, uvStride) = (self.yStride, self.uvStride)
        luma.withUnsafeMutableBufferPointer { y in
            chroma.withUnsafeMutableBufferPointer { uv in
                renderer.render(frameNumber: frame, time: time, barcodeTimestamp: barcodeTimestamp,
                                yPlane: y.baseAddress!, yStride: yStride, uvPlane: uv.baseAddress!, uvStride: uvStride)
            }
        }
    }

    func y(_ x: Int, _ row: Int) -> UInt8 { luma[row * yStride + x] }
    /// Cb, Cr of the chroma sample covering luma pixel (x, row).
    func cbcr(_ x: Int, _ row: Int) -> (UInt8, UInt8) {
        let offset = row / 2 * uvStride + x / 2 * 2
        return (chroma[offset], chroma[offset + 1])
    }

    func decode() -> Result<BarcodeReader.Reading, BarcodeReader.Failure> {
        luma.withUnsafeBufferPointer {
            BarcodeReader.decode(yPlane: $0.baseAddress!, stride: yStride, width: width, height: height)
        }
    }
}

@Suite struct ScreenRendererTests {
    @Test func rejectsSizesItCannotDraw() {
        #expect(throws: ScreenRenderer.SizeError.unsupported(width: 100, height: 200)) { try ScreenRenderer(width: 100, height: 200) }
        #expect(throws: ScreenRenderer.SizeError.self) { try ScreenRenderer(width: 640, height: 0) }
        #expect(throws: ScreenRenderer.SizeError.self) { try ScreenRenderer(width: 4098, height: 640) }
        #expect(throws: Never.self) { try ScreenRenderer(width: 1125, height: 2436) }
        #expect(throws: Never.self) { try ScreenRenderer(width: 128, height: 1) }
        #expect(String(describing: ScreenRenderer.SizeError.unsupported(width: 100, height: 200))
            == "screen size 100x200 is not supported: width must be 128-4096 and height 1-4096")
    }

    /// Rendering over 0x00 and over 0xFF must give the same bytes: nothing is left unwritten,
    /// and the padding after each row is never touched.
    @Test(arguments: [(1125, 2436), (2732, 2048), (640, 360), (128, 7)])
    func writesEveryPixelAndNoPadding(size: (Int, Int)) throws {
        let renderer = try ScreenRenderer(width: size.0, height: size.1)
        var zeros = TestFrame(width: size.0, height: size.1, padding: 6, fill: 0x00)
        var ones = TestFrame(width: size.0, height: size.1, padding: 6, fill: 0xFF)
        zeros.render(renderer, frame: 7, time: 12_345_678_901)
        ones.render(renderer, frame: 7, time: 12_345_678_901)
        /// Rows that differ between the two renders, or whose padding was written.
        func badRows(_ a: [UInt8], _ b: [UInt8], stride: Int, rows: Int, bytes: Int) -> [Int] {
            a.withUnsafeBytes { a in
                b.withUnsafeBytes { b in
                    (0 ..< rows).filter { row in
                        let start = row * stride
                        return memcmp(a.baseAddress! + start, b.baseAddress! + start, bytes) != 0
                            || a[start + bytes ..< start + stride].contains { $0 != 0x00 }
                            || b[start + bytes ..< start + stride].contains { $0 != 0xFF }
                    }
                }
            }
        }
        #expect(badRows(zeros.luma, ones.luma, stride: zeros.yStride, rows: size.1, bytes: size.0).isEmpty)
        #expect(badRows(zeros.chroma, ones.chroma, stride: zeros.uvStride, rows: (size.1 + 1) / 2,
                        bytes: (size.0 + 1) / 2 * 2).isEmpty)
    }

    @Test func isAPureFunctionOfSizeFrameAndTime() throws {
        let renderer = try ScreenRenderer(width: 640, height: 1136)
        var first = TestFrame(width: 640, height: 1136), second = first, later = first
        first.render(renderer, frame: 42, time: 5_000_000_000)
        later.render(renderer, frame: 43, time: 5_033_333_333)
        second.render(renderer, frame: 42, time: 5_000_000_000)
        #expect(first.luma == second.luma && first.chroma == second.chroma)
        #expect(first.luma != later.luma)
        // Only the barcode strip differs when just the barcode timestamp does.
        var stamped = TestFrame(width: 640, height: 1136)
        stamped.render(renderer, frame: 42, time: 5_000_000_000, barcodeTimestamp: 99)
        let strip = FrameBarcode.height(forWidth: 640) * 640
        #expect(stamped.luma[strip...] == first.luma[strip...])
        #expect(stamped.luma[..<strip] != first.luma[..<strip])
    }

    @Test func usesFullRangeLevels() throws {
        #expect(ScreenRenderer.colorimetry == "1:3:5:1")
        let renderer = try ScreenRenderer(width: 1170, height: 2532)
        var frame = TestFrame(width: 1170, height: 2532)
        frame.render(renderer, frame: 0, time: 0)
        // Columns 0 and 1 of the strip: reference black and white, no chroma.
        let cell = 1170 / 64
        #expect(frame.y(cell / 2, cell / 2) == 0)
        #expect(frame.y(cell + cell / 2, cell / 2) == 255)
        #expect(frame.cbcr(cell + cell / 2, cell / 2) == (128, 128))
        // A card's body, R'G'B' (246, 246, 250): limited range would store luma 227.
        let cardBody = (1170 / 2, FrameBarcode.height(forWidth: 1170) + 88 + 10)
        #expect(frame.y(cardBody.0, cardBody.1) == 246)
        #expect(frame.cbcr(cardBody.0, cardBody.1) == (130, 128))
        // The status bar's near-black (10, 10, 14) stays below limited range's 16.
        #expect(frame.y(1170 / 2, FrameBarcode.height(forWidth: 1170) + 2) == 10)
    }

    @Test func timecodeAndClockChangeOnlyTheirOwnRegion() throws {
        // Same scroll position (time), different frame numbers: only the strip and the
        // "FRAME" label in the panel change.
        let renderer = try ScreenRenderer(width: 640, height: 1136)
        var a = TestFrame(width: 640, height: 1136), b = a
        a.render(renderer, frame: 1, time: 1_000_000_000)
        b.render(renderer, frame: 2, time: 1_000_000_000, barcodeTimestamp: 1_000_000_000)
        let changedRows = (0 ..< 1136).filter { row in a.luma[row * 640 ..< (row + 1) * 640] != b.luma[row * 640 ..< (row + 1) * 640] }
        let strip = FrameBarcode.height(forWidth: 640)
        let panelTop = 1136 - 256
        #expect(changedRows.allSatisfy { $0 < strip || $0 >= panelTop })
        #expect(changedRows.contains { $0 >= panelTop })
    }
}
