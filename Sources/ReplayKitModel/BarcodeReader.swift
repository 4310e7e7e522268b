// SPDX-License-Identifier: LGPL-2.1-or-later
/// Reads the `FrameBarcode` strip back from a luma plane, scaled or not.
public enum BarcodeReader {
    public struct Reading: Sendable, Equatable {
        public var frameNumber: UInt32
        public var timestamp: UInt64

        public init(frameNumber: UInt32, timestamp: UInt64) {
            self.frameNumber = frameNumber
            self.timestamp = timestamp
        }
    }

    public enum Failure: Error, Sendable, Equatable {
        /// Narrower than `FrameBarcode.minimumWidth` or shorter than the strip.
        case frameTooSmall
        /// The reference cells are not clearly black and white: no strip here.
        case lowContrast
        /// Contrast is fine but the first byte is not the strip's magic number.
        case notABarcode
        /// Magic number right, CRC wrong: a damaged strip.
        case checksumMismatch
    }

    /// Frame number and timestamp, or nil when the strip is missing or damaged.
    public static func read(yPlane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> Reading? {
        try? decode(yPlane: yPlane, stride: stride, width: width, height: height).get()
    }

    public static func decode(yPlane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> Result<Reading, Failure> {
        guard width >= FrameBarcode.minimumWidth, height >= FrameBarcode.height(forWidth: width) else {
            return .failure(.frameTooSmall)
        }
        let cell = Double(width) / Double(FrameBarcode.columns)
        // Average the middle half of each cell: enough to smooth coding noise, far enough
        // from the edges that resampling blur does not reach in.
        let reach = max(0, Int(cell / 4 - 0.5))
        func level(row: Int, column: Int) -> Int {
            let centerX = Int((Double(column) + 0.5) * cell), centerY = Int((Double(row) + 0.5) * cell)
            var sum = 0
            for y in max(0, centerY - reach) ... min(height - 1, centerY + reach) {
                for x in max(0, centerX - reach) ... min(width - 1, centerX + reach) { sum += Int(yPlane[y * stride + x]) }
            }
            let side = min(height - 1, centerY + reach) - max(0, centerY - reach) + 1
            let across = min(width - 1, centerX + reach) - max(0, centerX - reach) + 1
            return sum / (side * across)
        }
        var words: [UInt64] = []
        for row in 0 ..< FrameBarcode.rows {
            let black = FrameBarcode.blackReferenceColumns.map { level(row: row, column: $0) }
            let white = FrameBarcode.whiteReferenceColumns.map { level(row: row, column: $0) }
            // A quarter of the full swing: well above coding noise, well below what
            // limited-range or mildly compressed black and white keep.
            guard white.min()! - black.max()! >= 64 else { return .failure(.lowContrast) }
            let threshold = (black.reduce(0, +) + white.reduce(0, +)) / 4
            var bits: UInt64 = 0
            for column in FrameBarcode.firstDataColumn ..< FrameBarcode.firstDataColumn + FrameBarcode.dataColumns {
                bits = bits << 1 | (level(row: row, column: column) > threshold ? 1 : 0)
            }
            words.append(bits)
        }
        // Reassemble the 120-bit payload into its 15 bytes.
        let high = words[0] << 4 | words[1] >> 56
        let low = words[1] << 8
        var bytes: [UInt8] = []
        for index in 0 ..< 15 {
            bytes.append(UInt8(truncatingIfNeeded: index < 8 ? high >> (56 - 8 * index) : low >> (56 - 8 * (index - 8))))
        }
        guard bytes[0] == FrameBarcode.magic else { return .failure(.notABarcode) }
        let crc = UInt16(bytes[13]) << 8 | UInt16(bytes[14])
        guard FrameBarcode.crc16(bytes[0 ..< 13]) == crc else { return .failure(.checksumMismatch) }
        let frame = bytes[1 ... 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let timestamp = bytes[5 ... 12].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return .success(Reading(frameNumber: frame, timestamp: timestamp))
    }
}
