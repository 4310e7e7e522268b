// SPDX-License-Identifier: LGPL-2.1-or-later
/// A view of one picture: its format, luma size and up to three planes over memory the
/// caller owns (a mapped `GstVideoFrame`, a scratch buffer). One view type for all four
/// formats lets a kernel chosen at caps time take any of them without generics.
public struct VideoFrame {
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    /// Planes beyond `format.planeCount` repeat plane 0 and are never touched.
    public private(set) var planes: (PixelPlane, PixelPlane, PixelPlane)

    /// Wraps planes whose sizes must match `format.planeSize` for `width`×`height`.
    public init(format: PixelFormat, width: Int, height: Int, planes: [PixelPlane]) {
        precondition(planes.count == format.planeCount, "\(format) needs \(format.planeCount) planes")
        self.init(format: format, width: width, height: height, planes[0],
                  planes.count > 1 ? planes[1] : nil, planes.count > 2 ? planes[2] : nil)
    }

    /// The same without an array, for wrapping a mapped `GstVideoFrame` on every buffer
    /// (plane data pointers and strides straight from it) without allocating.
    public init(format: PixelFormat, width: Int, height: Int, _ plane0: PixelPlane, _ plane1: PixelPlane? = nil,
                _ plane2: PixelPlane? = nil) {
        let given = plane1 == nil ? 1 : plane2 == nil ? 2 : 3
        precondition(given == format.planeCount, "\(format) needs \(format.planeCount) planes")
        self.format = format
        self.width = width
        self.height = height
        self.planes = (plane0, plane1 ?? plane0, plane2 ?? plane0)
        for index in 0..<format.planeCount {
            let plane = self.plane(index), size = format.planeSize(index, width: width, height: height)
            precondition(plane.width == size.width && plane.height == size.height, "plane \(index) has the wrong size")
            precondition(plane.bytesPerPixel == format.bytesPerPixel(plane: index), "plane \(index) has the wrong pixel size")
        }
    }

    /// Views one buffer holding every plane, at the byte offsets and strides of `layout`
    /// (for a mapped `GstVideoFrame`: its `info.offset` and `info.stride`).
    public init(base: UnsafeMutableRawPointer, layout: FrameLayout) {
        let format = layout.format
        self.format = format
        self.width = layout.width
        self.height = layout.height
        func plane(_ index: Int) -> PixelPlane {
            let clamped = Swift.min(index, format.planeCount - 1)
            let size = format.planeSize(clamped, width: layout.width, height: layout.height)
            return PixelPlane(base: (base + layout.offsets[clamped]).assumingMemoryBound(to: UInt8.self),
                              stride: layout.strides[clamped], width: size.width, height: size.height,
                              bytesPerPixel: format.bytesPerPixel(plane: clamped))
        }
        self.planes = (plane(0), plane(1), plane(2))
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    @inlinable public func plane(_ index: Int) -> PixelPlane {
        switch index {
        case 0: planes.0
        case 1: planes.1
        default: planes.2
        }
    }

    /// A view of the part of this frame covered by `rect` after `PlacementRule` snapping,
    /// clipped to the frame. Writing into the view writes into this frame.
    public func cropped(to rect: PixelRect) -> VideoFrame {
        let placement = Placement(format: format, frame: size, origin: rect.origin, content: rect.size)
        let visible = placement.visible
        var cropped: [PixelPlane] = []
        for index in 0..<format.planeCount {
            let span = placement.span(plane: index)
            cropped.append(plane(index).cropped(x: span.destinationX, y: span.destinationY, width: span.width, height: span.height))
        }
        return VideoFrame(format: format, width: visible.width, height: visible.height, planes: cropped)
    }
}

/// Strides and byte offsets of the planes of a picture in one buffer.
public struct FrameLayout: Hashable, Sendable {
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    public let strides: [Int]
    public let offsets: [Int]
    /// Bytes the whole picture needs.
    public let byteCount: Int

    public init(format: PixelFormat, width: Int, height: Int, strides: [Int], offsets: [Int], byteCount: Int) {
        precondition(strides.count == format.planeCount && offsets.count == format.planeCount, "one stride and offset per plane")
        self.format = format
        self.width = width
        self.height = height
        self.strides = strides
        self.offsets = offsets
        self.byteCount = byteCount
    }

    /// The layout `gst_video_info_set_format` gives: rows padded to 4 bytes, planes back to
    /// back, chroma planes after a luma plane of even height. Files written by `filesink`
    /// from `videotestsrc`/`videoscale`/`compositor` use it, so tests can read them.
    public static func gstreamerDefault(format: PixelFormat, width: Int, height: Int) -> FrameLayout {
        func roundUp4(_ value: Int) -> Int { (value + 3) & ~3 }
        let evenHeight = (height + 1) & ~1
        switch format {
        case .nv12:
            let stride = roundUp4(width)
            let chromaOffset = stride * evenHeight
            return FrameLayout(format: format, width: width, height: height, strides: [stride, stride],
                               offsets: [0, chromaOffset], byteCount: chromaOffset + stride * evenHeight / 2)
        case .i420:
            let lumaStride = roundUp4(width)
            let chromaStride = roundUp4(((width + 1) & ~1) / 2)
            let uOffset = lumaStride * evenHeight
            let vOffset = uOffset + chromaStride * evenHeight / 2
            return FrameLayout(format: format, width: width, height: height, strides: [lumaStride, chromaStride, chromaStride],
                               offsets: [0, uOffset, vOffset], byteCount: vOffset + chromaStride * evenHeight / 2)
        case .rgba, .bgra:
            return FrameLayout(format: format, width: width, height: height, strides: [width * 4],
                               offsets: [0], byteCount: width * 4 * height)
        }
    }
}
