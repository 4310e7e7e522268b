// SPDX-License-Identifier: LGPL-2.1-or-later
/// A position in luma (full-resolution) pixels. Negative values place a picture partly
/// outside the frame, as compositor's `xpos`/`ypos` allow.
public struct PixelPoint: Hashable, Sendable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = PixelPoint(x: 0, y: 0)
}

/// A size in luma pixels.
public struct PixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

/// A rectangle in luma pixels; `x`/`y` is the top-left corner, the right and bottom edges
/// are exclusive.
public struct PixelRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: PixelPoint, size: PixelSize) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var origin: PixelPoint { PixelPoint(x: x, y: y) }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The overlap of two rectangles; empty (zero size) when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = Swift.max(x, other.x), top = Swift.max(y, other.y)
        let right = Swift.min(maxX, other.maxX), bottom = Swift.min(maxY, other.maxY)
        guard right > left, bottom > top else { return PixelRect(x: left, y: top, width: 0, height: 0) }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// What is left of this rectangle around `inner` (which lies inside it): the bars above
    /// and below across the whole width, then those left and right of `inner`; a bar is empty
    /// where `inner` reaches that edge.
    public func bars(around inner: PixelRect) -> (top: PixelRect, bottom: PixelRect, left: PixelRect, right: PixelRect) {
        (PixelRect(x: x, y: y, width: width, height: inner.y - y),
         PixelRect(x: x, y: inner.maxY, width: width, height: maxY - inner.maxY),
         PixelRect(x: x, y: inner.y, width: inner.x - x, height: inner.height),
         PixelRect(x: inner.maxX, y: inner.y, width: maxX - inner.maxX, height: inner.height))
    }
}
