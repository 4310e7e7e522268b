// SPDX-License-Identifier: LGPL-2.1-or-later
/// A view of one plane of a picture in memory the caller owns: `width`×`height` sample
/// positions of `bytesPerPixel` bytes each, rows `stride` bytes apart. Copying a plane copies
/// the view, never the pixels.
public struct PixelPlane {
    public var base: UnsafeMutablePointer<UInt8>
    public var stride: Int
    public var width: Int
    public var height: Int
    public var bytesPerPixel: Int

    public init(base: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, bytesPerPixel: Int = 1) {
        precondition(width >= 0 && height >= 0 && bytesPerPixel > 0, "negative plane size")
        precondition(stride >= width * bytesPerPixel || height <= 1, "stride shorter than a row")
        self.base = base
        self.stride = stride
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
    }

    /// Bytes of pixel data in one row.
    @inlinable public var rowBytes: Int { width * bytesPerPixel }

    @inlinable public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }

    @inlinable public func pixel(x: Int, y: Int) -> UnsafeMutablePointer<UInt8> {
        base + y * stride + x * bytesPerPixel
    }

    /// A view of a sub-rectangle given in this plane's own sample positions.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> PixelPlane {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "crop outside the plane")
        return PixelPlane(base: pixel(x: x, y: y), stride: stride, width: width, height: height, bytesPerPixel: bytesPerPixel)
    }
}
