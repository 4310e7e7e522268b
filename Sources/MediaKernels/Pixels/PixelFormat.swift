// SPDX-License-Identifier: LGPL-2.1-or-later
/// The pixel formats the PiP kernels handle. NV12 is native (iOS screen capture delivers
/// `420YpCbCr8BiPlanarFullRange`); the others come from cameras and overlays.
public enum PixelFormat: Sendable, CaseIterable, CustomStringConvertible {
    /// Y plane, then one plane of interleaved U,V pairs at half width and half height.
    case nv12
    /// Y, U and V planes; U and V at half width and half height.
    case i420
    /// One plane of 4-byte pixels, bytes in memory order R, G, B, A.
    case rgba
    /// One plane of 4-byte pixels, bytes in memory order B, G, R, A.
    case bgra

    public var description: String {
        switch self {
        case .nv12: "NV12"
        case .i420: "I420"
        case .rgba: "RGBA"
        case .bgra: "BGRA"
        }
    }

    public var planeCount: Int {
        switch self {
        case .nv12: 2
        case .i420: 3
        case .rgba, .bgra: 1
        }
    }

    public var isYUV: Bool { self == .nv12 || self == .i420 }

    /// Bytes of one sample position in `plane` (an NV12 chroma position holds U and V).
    public func bytesPerPixel(plane: Int) -> Int {
        switch self {
        case .nv12: plane == 0 ? 1 : 2
        case .i420: 1
        case .rgba, .bgra: 4
        }
    }

    /// log2 of the subsampling of `plane` in both directions (4:2:0 chroma is 1).
    public func subsampling(plane: Int) -> Int {
        isYUV && plane > 0 ? 1 : 0
    }

    /// Positions and sizes of a 4:2:0 picture are snapped to this many luma pixels (see
    /// `PlacementRule`); 1 for the packed RGB formats.
    public var alignment: Int { isYUV ? 2 : 1 }

    /// Size of `plane` for a picture of `width`×`height` luma pixels: chroma planes round up,
    /// so an odd-sized picture still has a chroma sample for its last row and column.
    public func planeSize(_ plane: Int, width: Int, height: Int) -> PixelSize {
        let shift = subsampling(plane: plane)
        return PixelSize(width: (width + (1 << shift) - 1) >> shift, height: (height + (1 << shift) - 1) >> shift)
    }
}
