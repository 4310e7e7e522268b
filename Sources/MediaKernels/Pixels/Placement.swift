// SPDX-License-Identifier: LGPL-2.1-or-later
/// Where a picture of `content` size lands in a frame, following compositor's rules so an
/// unscaled opaque PiP is bit-exact with `compositor` (verified against GStreamer 1.22,
/// see `PixelOps.copy`):
///
/// - 4:2:0 formats: the origin is rounded **up** to even (`(v + 1) & ~1`: 101 → 102,
///   -3 → -2), so luma and chroma grids stay aligned. The size is kept: a picture of odd
///   width `w` writes `w` luma columns and `ceil(w / 2)` chroma columns, i.e. its last chroma
///   column also colours the main picture's luma column just right of it (same for rows).
/// - RGBA/BGRA: no snapping.
/// - Clipping: the part outside the frame is dropped; chroma of the clipped rectangle is
///   again `ceil(visible / 2)` from `visible.origin / 2` (the visible origin is even).
public struct Placement: Sendable {
    public let format: PixelFormat
    /// The snapped origin of the whole picture (may be outside the frame).
    public let origin: PixelPoint
    public let content: PixelSize
    /// The part of the frame the picture covers, in luma pixels.
    public let visible: PixelRect

    public init(format: PixelFormat, frame: PixelSize, origin requested: PixelPoint, content: PixelSize) {
        let origin = format.isYUV ? PixelPoint(x: (requested.x + 1) & ~1, y: (requested.y + 1) & ~1) : requested
        self.format = format
        self.origin = origin
        self.content = content
        self.visible = PixelRect(origin: origin, size: content)
            .intersection(PixelRect(x: 0, y: 0, width: frame.width, height: frame.height))
    }

    public var isEmpty: Bool { visible.isEmpty }

    /// The visible part in `plane`'s own sample positions: where it goes in the frame's plane
    /// and where it starts in the picture's plane.
    public func span(plane: Int) -> PlaneSpan {
        guard !visible.isEmpty else { return PlaneSpan(destinationX: 0, destinationY: 0, sourceX: 0, sourceY: 0, width: 0, height: 0) }
        let shift = format.subsampling(plane: plane)
        let round = (1 << shift) - 1
        return PlaneSpan(destinationX: visible.x >> shift, destinationY: visible.y >> shift,
                         sourceX: (visible.x - origin.x) >> shift, sourceY: (visible.y - origin.y) >> shift,
                         width: (visible.width + round) >> shift, height: (visible.height + round) >> shift)
    }
}

/// A rectangle of sample positions of one plane shared by a picture and the frame it is
/// drawn into.
public struct PlaneSpan: Hashable, Sendable {
    public var destinationX: Int
    public var destinationY: Int
    public var sourceX: Int
    public var sourceY: Int
    public var width: Int
    public var height: Int

    public init(destinationX: Int, destinationY: Int, sourceX: Int, sourceY: Int, width: Int, height: Int) {
        self.destinationX = destinationX
        self.destinationY = destinationY
        self.sourceX = sourceX
        self.sourceY = sourceY
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
}
