// SPDX-License-Identifier: LGPL-2.1-or-later

/// Writes ISO base media file format boxes (ISO/IEC 14496-12, 4.2) big-endian into one
/// growing byte array. A box's size is patched in when its body is done, so a caller never
/// counts bytes by hand. The array keeps its capacity across `removeAll`, so a writer reused
/// for every fragment allocates only while its largest fragment grows.
public struct BoxWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public var count: Int { bytes.count }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    public mutating func u8(_ value: UInt8) { bytes.append(value) }

    public mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    public mutating func u24(_ value: UInt32) {
        precondition(value < 1 << 24, "\(value) does not fit 24 bits")
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        u16(UInt16(truncatingIfNeeded: value))
    }

    public mutating func u32(_ value: UInt32) {
        u16(UInt16(value >> 16))
        u16(UInt16(truncatingIfNeeded: value))
    }

    public mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }

    public mutating func u64(_ value: UInt64) {
        u32(UInt32(value >> 32))
        u32(UInt32(truncatingIfNeeded: value))
    }

    public mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }

    public mutating func append<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 { bytes.append(contentsOf: data) }

    public mutating func append(_ data: UnsafeRawBufferPointer) { bytes.append(contentsOf: data) }

    /// A four-character code: exactly four ASCII characters.
    public mutating func fourCC(_ code: StaticString) {
        precondition(code.utf8CodeUnitCount == 4 && code.isASCII, "\(code) is not a four-character code")
        code.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A box: 32-bit size, type, then what `body` writes.
    public mutating func box(_ type: StaticString, _ body: (inout BoxWriter) -> Void) {
        let start = bytes.count
        u32(0)
        fourCC(type)
        body(&self)
        patch(u32: UInt32(bytes.count - start), at: start)
    }

    /// A full box (14496-12, 4.2.2): a box whose body starts with a version and 24 bits of flags.
    public mutating func fullBox(_ type: StaticString, version: UInt8 = 0, flags: UInt32 = 0,
                                 _ body: (inout BoxWriter) -> Void) {
        box(type) { writer in
            writer.u8(version)
            writer.u24(flags)
            body(&writer)
        }
    }

    /// Overwrites four bytes written earlier (a size or an offset known only later).
    public mutating func patch(u32 value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }
}
