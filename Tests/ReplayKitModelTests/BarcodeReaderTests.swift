// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import ReplayKitModel
import Testing

@Suite struct BarcodeReaderTests {
    static let values: [(UInt32, UInt64)] = [
        (0, 0), (1, 33_333_333), (UInt32.max, UInt64.max), (0x8000_0001, 0x8000_0000_0000_0001),
        (0xA5A5_A5A5, 0x5A5A_5A5A_5A5A_5A5A), (123_456, 4_115_200_000_000), (0x0F0F_0F0F, 1 << 63),
        (29, 966_666_666),
    ]

    /// Averages each factor x factor block of luma, as a box-filtering scaler does. Only the
    /// top quarter-width of rows (the strip and then some) is kept: the reader looks no
    /// further, and debug builds are slow at whole frames.
    static func downscale(_ frame: TestFrame, by factor: Int) -> (luma: [UInt8], width: Int, height: Int) {
        let width = frame.width / factor, height = min(frame.height, frame.width / 4) / factor
        let stride = frame.yStride
        let out = frame.luma.withUnsafeBufferPointer { luma in
            [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
                for y in 0 ..< height {
                    for x in 0 ..< width {
                        var sum = 0
                        for dy in 0 ..< factor {
                            for dx in 0 ..< factor { sum += Int(luma[(y * factor + dy) * stride + x * factor + dx]) }
                        }
                        out[y * width + x] = UInt8((sum + factor * factor / 2) / (factor * factor))
                    }
                }
                initialized = width * height
            }
        }
        return (out, width, height)
    }

    /// Roughly what a mild H.264 encode and a limited-range round trip do to the strip: levels
    /// squeezed to 16–235, edges softened by a [1 2 1] blur both ways, ±10 of noise.
    static func degrade(_ luma: [UInt8], width: Int, height: Int) -> [UInt8] {
        var squeezed = luma.map { 16 + Int($0) * 219 / 255 }
        var blurred = squeezed
        for y in 0 ..< height {
            for x in 1 ..< width - 1 {
                blurred[y * width + x] = (squeezed[y * width + x - 1] + 2 * squeezed[y * width + x] + squeezed[y * width + x + 1]) / 4
            }
        }
        squeezed = blurred
        for y in 1 ..< height - 1 {
            for x in 0 ..< width {
                blurred[y * width + x] = (squeezed[(y - 1) * width + x] + 2 * squeezed[y * width + x] + squeezed[(y + 1) * width + x]) / 4
            }
        }
        var seed: UInt64 = 12345
        return blurred.map { value in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(clamping: value + Int(seed >> 33) % 21 - 10)
        }
    }

    static func read(_ luma: [UInt8], width: Int, height: Int) -> Result<BarcodeReader.Reading, BarcodeReader.Failure> {
        luma.withUnsafeBufferPointer { BarcodeReader.decode(yPlane: $0.baseAddress!, stride: width, width: width, height: height) }
    }

    @Test(arguments: [(1170, 2532), (1125, 2436), (2048, 2732), (640, 360), (128, 128)])
    func roundTripsAtFullSize(size: (Int, Int)) throws {
        let renderer = try ScreenRenderer(width: size.0, height: size.1)
        var frame = TestFrame(width: size.0, height: size.1)
        // Every value at small sizes, a few at large ones (debug builds draw slowly).
        for (number, timestamp) in size.0 <= 640 ? Self.values : Array(Self.values.suffix(3)) {
            frame.render(renderer, frame: number, time: 1_000_000, barcodeTimestamp: timestamp)
            #expect(try frame.decode().get() == BarcodeReader.Reading(frameNumber: number, timestamp: timestamp))
        }
    }

    @Test(arguments: [(1170, 2532), (1125, 2436), (2048, 2732), (1242, 2688), (512, 910)])
    func readsAfterHalvingAndQuartering(size: (Int, Int)) throws {
        let renderer = try ScreenRenderer(width: size.0, height: size.1)
        var frame = TestFrame(width: size.0, height: size.1)
        for (number, timestamp) in [Self.values[2], Self.values[4]] {
            frame.render(renderer, frame: number, time: timestamp % 100_000_000_000, barcodeTimestamp: timestamp)
            for factor in [2, 4] {
                let small = Self.downscale(frame, by: factor)
                let reading = Self.read(small.luma, width: small.width, height: small.height)
                #expect(try reading.get() == BarcodeReader.Reading(frameNumber: number, timestamp: timestamp),
                        "\(size) scaled 1/\(factor)")
            }
        }
    }

    @Test(arguments: [(1170, 2532), (720, 1280)])
    func readsThroughCodingDamage(size: (Int, Int)) throws {
        let renderer = try ScreenRenderer(width: size.0, height: size.1)
        var frame = TestFrame(width: size.0, height: size.1)
        frame.render(renderer, frame: 0xDEAD_BEEF, time: 7_000_000_000, barcodeTimestamp: 0x0123_4567_89AB_CDEF)
        let expected = BarcodeReader.Reading(frameNumber: 0xDEAD_BEEF, timestamp: 0x0123_4567_89AB_CDEF)
        let top = Self.downscale(frame, by: 1)
        let damaged = Self.degrade(top.luma, width: top.width, height: top.height)
        #expect(try Self.read(damaged, width: top.width, height: top.height).get() == expected)
        let quarter = Self.downscale(frame, by: 4)
        let damagedQuarter = Self.degrade(quarter.luma, width: quarter.width, height: quarter.height)
        #expect(try Self.read(damagedQuarter, width: quarter.width, height: quarter.height).get() == expected)
    }

    /// Inverts cell (row, column) of the strip.
    static func flip(_ frame: inout TestFrame, row: Int, column: Int) {
        let width = frame.width
        for y in row * width / 64 ..< (row + 1) * width / 64 {
            for x in column * width / 64 ..< (column + 1) * width / 64 { frame.luma[y * frame.yStride + x] ^= 0xFF }
        }
    }

    /// The writer's rows, column by column, against the documented layout built bit by bit
    /// from the 15 payload bytes; the CRC against CRC-16/CCITT-FALSE's published check value.
    @Test func rowsHoldTheDocumentedLayout() {
        #expect(FrameBarcode.crc16(Array("123456789".utf8)) == 0x29B1)
        let frameNumber: UInt32 = 0x0102_0304, timestamp: UInt64 = 0x1122_3344_5566_7788
        var bytes: [UInt8] = [0xB5, 0x01, 0x02, 0x03, 0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
        let crc = FrameBarcode.crc16(bytes)
        bytes += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        let payload: [Bool] = bytes.flatMap { byte in (0 ..< 8).map { bit in byte >> (7 - bit) & 1 == 1 } }
        let rows = FrameBarcode.rowBits(frameNumber: frameNumber, timestamp: timestamp)
        var compared = 0
        for (row, bits) in [rows.0, rows.1].enumerated() {
            for column in 0 ..< 64 {
                let expected: Bool = switch column {
                case 0, 62: false
                case 1, 63: true
                default: payload[row * 60 + column - 2]
                }
                #expect((bits >> (63 - column) & 1 == 1) == expected, "row \(row) column \(column)")
                compared += 1
            }
        }
        #expect(payload.count == 120 && compared == 128)
    }

    @Test func checksumRejectsACorruptedRow() throws {
        let renderer = try ScreenRenderer(width: 1170, height: 2532)
        var frame = TestFrame(width: 1170, height: 2532)
        frame.render(renderer, frame: 1000, time: 33_333_333_333)
        #expect(frame.decode() == .success(.init(frameNumber: 1000, timestamp: 33_333_333_333)))
        for column in [10, 40, 61] {
            var damaged = frame
            Self.flip(&damaged, row: 1, column: column)
            #expect(damaged.decode() == .failure(.checksumMismatch), "row 1 column \(column)")
        }
        var frameBit = frame
        Self.flip(&frameBit, row: 0, column: 20)
        #expect(frameBit.decode() == .failure(.checksumMismatch))
        // Columns 2…9 hold the magic number.
        var magic = frame
        Self.flip(&magic, row: 0, column: 5)
        #expect(magic.decode() == .failure(.notABarcode))
        var reference = frame
        Self.flip(&reference, row: 1, column: 63)
        #expect(reference.decode() == .failure(.lowContrast))
    }

    @Test func rejectsFramesWithoutAStrip() {
        let grey = [UInt8](repeating: 128, count: 640 * 480)
        #expect(Self.read(grey, width: 640, height: 480) == .failure(.lowContrast))
        // Black and white stripes pass the contrast check but carry no magic number.
        let stripes = (0 ..< 640 * 480).map { (index: Int) -> UInt8 in index % 640 / 10 % 2 == 0 ? 0 : 255 }
        #expect(Self.read(stripes, width: 640, height: 480) == .failure(.notABarcode))
        #expect(Self.read(grey, width: 100, height: 480) == .failure(.frameTooSmall))
        #expect(Self.read(grey, width: 640, height: 19) == .failure(.frameTooSmall))
        grey.withUnsafeBufferPointer {
            #expect(BarcodeReader.read(yPlane: $0.baseAddress!, stride: 640, width: 640, height: 480) == nil)
        }
    }
}
