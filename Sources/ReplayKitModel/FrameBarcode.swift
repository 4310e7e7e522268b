// SPDX-License-Identifier: LGPL-2.1-or-later
/// The machine-readable strip at the top of every emulated screen frame.
///
/// Layout: 2 rows of 64 square cells spanning the full width (cell edges at ⌊i · width / 64⌋,
/// rows as tall as cells are wide), black (Y 0) or white (Y 255). In each row columns 0 and
/// 62 are black and 1 and 63 white: references a reader thresholds against, so levels
/// squeezed by a limited-range conversion or an encoder still read. Columns 2…61 of row 0
/// and then row 1 carry 120 bits, most significant first:
///
///     magic 0xB5 (8) | frame number (32) | timestamp ns (64) | CRC-16 (16)
///
/// The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over the 13 bytes
/// before it. Cells are sized by the width alone, so a reader that knows only the scaled
/// frame's size finds them again after any aspect-preserving downscale that leaves at least
/// two pixels per cell (width ≥ 128: a quarter of 512).
public enum FrameBarcode {
    public static let columns = 64
    public static let rows = 2
    static let firstDataColumn = 2
    static let dataColumns = 60
    static let blackReferenceColumns = [0, 62]
    static let whiteReferenceColumns = [1, 63]
    static let magic: UInt8 = 0xB5
    /// The narrowest frame whose cells are at least two pixels wide.
    public static let minimumWidth = 2 * columns

    /// Rows the strip occupies in a frame of this width.
    public static func height(forWidth width: Int) -> Int { edge(rows, width) }

    /// Left (or top) pixel of cell `index`.
    @inline(__always)
    static func edge(_ index: Int, _ width: Int) -> Int { index * width / columns }

    /// The cell bits of each row, bit 63 being column 0. Built in registers: it runs per frame.
    static func rowBits(frameNumber: UInt32, timestamp: UInt64) -> (UInt64, UInt64) {
        // 120 payload bits as a 128-bit number, top-aligned: word 0 holds bits 0…63.
        let high = UInt64(magic) << 56 | UInt64(frameNumber) << 24 | timestamp >> 40
        var low = (timestamp & 0xFF_FFFF_FFFF) << 24
        var crc = crcInitial
        for index in 0 ..< 13 {
            let word = index < 8 ? high : low
            crc = crc16(crc, UInt8(truncatingIfNeeded: word >> (56 - 8 * (index % 8))))
        }
        low |= UInt64(crc) << 8
        let row0Data = high >> 4 // payload bits 0…59
        let row1Data = (high & 0xF) << 56 | low >> 8 // payload bits 60…119
        return (withReferences(row0Data), withReferences(row1Data))
    }

    /// Places 60 data bits in columns 2…61 and sets the white reference columns.
    private static func withReferences(_ data: UInt64) -> UInt64 {
        var row = data << 2 // column 61 lands on bit 2, column 2 on bit 61
        for column in whiteReferenceColumns { row |= 1 << (63 - column) }
        return row
    }

    static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        bytes.reduce(crcInitial, crc16)
    }

    private static let crcInitial: UInt16 = 0xFFFF

    @inline(__always)
    private static func crc16(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc ^ UInt16(byte) << 8
        for _ in 0 ..< 8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1 }
        return crc
    }
}

extension FrameBarcode {
    /// Paints the strip's rows that `canvas` lets through, from `rowBits`' two rows.
    static func draw(_ bits: (UInt64, UInt64), on canvas: NV12Canvas) {
        guard canvas.top < canvas.bottom else { return }
        let width = canvas.width
        for y in canvas.top ..< canvas.bottom {
            let row = y < edge(1, width) ? bits.0 : bits.1
            var column = 0
            while column < columns {
                let white = row >> (63 - column) & 1
                var end = column + 1
                while end < columns && row >> (63 - end) & 1 == white { end += 1 }
                canvas.span(y, edge(column, width), edge(end, width), white == 1 ? .white : .black)
                column = end
            }
        }
    }
}
