// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// A colour as NV12 full-range bytes: one luma byte and the interleaved Cb, Cr pair.
///
/// Conversion uses the BT.709 matrix with full range (Y 0–255, Cb/Cr centred on 128), the
/// colorimetry ReplayKit's `420YpCbCr8BiPlanarFullRange` screen buffers are tagged with;
/// in GStreamer caps that is `colorimetry=1:3:5:1` (range 0-255, BT.709 matrix, transfer
/// and primaries).
struct NV12Color: Sendable, Equatable {
    var y: UInt8
    var cb: UInt8
    var cr: UInt8

    /// Cb then Cr in memory, as one 16-bit store on any byte order.
    var chromaPair: UInt16 { (UInt16(cb) | UInt16(cr) << 8).littleEndian }

    init(y: UInt8, cb: UInt8, cr: UInt8) {
        self.y = y
        self.cb = cb
        self.cr = cr
    }

    /// From non-linear (gamma-encoded) R'G'B' bytes.
    init(red: Int, green: Int, blue: Int) {
        let rgb = RGBColor(red: UInt8(clamping: red), green: UInt8(clamping: green), blue: UInt8(clamping: blue))
        let yuv = rgb.yuv(in: .screenCapture)
        self.init(y: yuv.y, cb: yuv.u, cr: yuv.v)
    }

    /// Linear mix in R'G'B' space, `amount` 0 → self … 1 → other.
    static func mix(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ amount: Double) -> NV12Color {
        let channel = { (x: Int, y: Int) in Int((Double(x) + (Double(y) - Double(x)) * amount).rounded()) }
        return NV12Color(red: channel(a.0, b.0), green: channel(a.1, b.1), blue: channel(a.2, b.2))
    }

    static let black = NV12Color(y: 0, cb: 128, cr: 128)
    static let white = NV12Color(y: 255, cb: 128, cr: 128)
}
