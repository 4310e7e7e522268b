// SPDX-License-Identifier: LGPL-2.1-or-later
/// Draws the emulated phone screen into NV12 full-range frames: a status bar with a
/// recording clock, a scrolling list of cards, a "now playing" panel with a timecode, a
/// progress bar and a dot that bounces on every beat of `ProgramAudio`'s music, over a
/// gradient — plus the `FrameBarcode` strip on top.
///
/// Everything depends only on the frame size, frame number and time, so any frame can be
/// drawn again identically. All size-dependent work (layout, colours, gradient, corner
/// tables) happens in `init`; `render` allocates nothing, takes no locks and writes every
/// byte of both planes, so buffers need no clearing. Orientation is not drawn: the element
/// tags frames instead (see `VideoOrientation`).
public struct ScreenRenderer: Sendable {
    public let width: Int
    public let height: Int
    let layout: ScreenLayout

    public static let maximumSide = 4096
    /// The caps colorimetry of what `render` draws: full range, BT.709 matrix, transfer and
    /// primaries (GStreamer's own `bt709` is the limited-range 2:3:5:1).
    public static let colorimetry = "1:3:5:1"

    public enum SizeError: Error, Equatable, CustomStringConvertible {
        case unsupported(width: Int, height: Int)

        public var description: String {
            switch self {
            case .unsupported(let width, let height):
                "screen size \(width)x\(height) is not supported: width must be "
                    + "\(FrameBarcode.minimumWidth)-\(maximumSide) and height 1-\(maximumSide)"
            }
        }
    }

    /// Any size in range, odd ones included: iPhone X's native 1125x2436 is odd across.
    /// (Many H.264 encoders want even sizes; rounding is the pipeline's choice.)
    public init(width: Int, height: Int) throws(SizeError) {
        guard (FrameBarcode.minimumWidth ... Self.maximumSide).contains(width), (1 ... Self.maximumSide).contains(height)
        else { throw .unsupported(width: width, height: height) }
        self.width = width
        self.height = height
        layout = ScreenLayout(width: width, height: height)
    }

    /// Draws frame `frameNumber` at `time` (ns since the broadcast started; drives the
    /// animation and the clocks). The barcode carries `barcodeTimestamp`, or `time` when nil.
    ///
    /// The planes are NV12: `yPlane` holds `height` rows of `width` bytes at `yStride`,
    /// `uvPlane` ⌈height / 2⌉ rows of ⌈width / 2⌉ Cb,Cr pairs at `uvStride`, which must be
    /// even, as must the `uvPlane` address (always true of GStreamer video buffers).
    public func render(frameNumber: UInt32, time: UInt64, barcodeTimestamp: UInt64? = nil,
                       yPlane: UnsafeMutablePointer<UInt8>, yStride: Int,
                       uvPlane: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        let frame = ScreenFrame(layout: layout, frameNumber: frameNumber, time: time,
                                barcodeTimestamp: barcodeTimestamp ?? time)
        var canvas = canvas(yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride)
        // Bands of rows small enough that a band of both planes stays in L1/L2 while the
        // overlapping shapes are painted over each other.
        let band = 16
        for top in stride(from: 0, to: height, by: band) {
            canvas.top = top
            canvas.bottom = min(top + band, height)
            frame.draw(on: canvas)
        }
    }

    /// Draws only the barcode strip, in the top `FrameBarcode.height(forWidth:)` rows, over a
    /// picture that is not the emulated screen (screen-location); the planes are as `render`'s.
    public func renderBarcode(frameNumber: UInt32, timestamp: UInt64,
                              yPlane: UnsafeMutablePointer<UInt8>, yStride: Int,
                              uvPlane: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        var canvas = canvas(yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride)
        canvas.bottom = layout.barcodeBottom
        FrameBarcode.draw(FrameBarcode.rowBits(frameNumber: frameNumber, timestamp: timestamp), on: canvas)
    }

    private func canvas(yPlane: UnsafeMutablePointer<UInt8>, yStride: Int,
                        uvPlane: UnsafeMutablePointer<UInt8>, uvStride: Int) -> NV12Canvas {
        precondition(yStride >= width && uvStride >= (width + 1) / 2 * 2, "strides must cover a row")
        precondition(uvStride % 2 == 0 && Int(bitPattern: uvPlane) % 2 == 0, "chroma pairs must be 2-byte aligned")
        return NV12Canvas(luma: yPlane, lumaStride: yStride,
                   chroma: UnsafeMutableRawPointer(uvPlane).assumingMemoryBound(to: UInt16.self), chromaStride: uvStride / 2,
                   width: width, top: 0, bottom: 0)
    }
}
