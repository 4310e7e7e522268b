// SPDX-License-Identifier: LGPL-2.1-or-later
/// GStreamer's `image-orientation` tag values: how the picture must be turned to be shown
/// upright. "flip-rotate-N" mirrors left-right, then rotates N degrees clockwise; so
/// flip-rotate-90 is the anti-transpose and flip-rotate-270 the transpose (what
/// `videoflip video-direction=auto` does with these tags on GStreamer 1.22).
public enum Orientation: String, Sendable, CaseIterable {
    case rotate0 = "rotate-0"
    case rotate90 = "rotate-90"
    case rotate180 = "rotate-180"
    case rotate270 = "rotate-270"
    case flipRotate0 = "flip-rotate-0"
    case flipRotate90 = "flip-rotate-90"
    case flipRotate180 = "flip-rotate-180"
    case flipRotate270 = "flip-rotate-270"

    /// The tag string, e.g. "rotate-90".
    public init?(tag: String) { self.init(rawValue: tag) }

    /// ReplayKit's `RPVideoSampleOrientationKey` (a CGImagePropertyOrientation, EXIF
    /// numbering): 1 up, 3 down, 6 right, 8 left; 2 and 4 mirror, 5 is the transpose and 7
    /// the anti-transpose.
    public init?(exif: Int) {
        switch exif {
        case 1: self = .rotate0
        case 2: self = .flipRotate0
        case 3: self = .rotate180
        case 4: self = .flipRotate180
        case 5: self = .flipRotate270
        case 6: self = .rotate90
        case 7: self = .flipRotate90
        case 8: self = .rotate270
        default: return nil
        }
    }

    /// Whether width and height trade places.
    public var swapsAxes: Bool {
        switch self {
        case .rotate90, .rotate270, .flipRotate90, .flipRotate270: true
        default: false
        }
    }

    public func outputSize(for input: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: input.height, height: input.width) : input
    }

    /// The source sample shown at output position (x, y) of an output `output` samples big
    /// (checked against `videoflip video-direction=auto` with each tag on GStreamer 1.22).
    @inlinable
    public func sourcePosition(x: Int, y: Int, output: PixelSize) -> PixelPoint {
        let w = output.width, h = output.height
        switch self {
        case .rotate0: return PixelPoint(x: x, y: y)
        case .rotate90: return PixelPoint(x: y, y: w - 1 - x)
        case .rotate180: return PixelPoint(x: w - 1 - x, y: h - 1 - y)
        case .rotate270: return PixelPoint(x: h - 1 - y, y: x)
        case .flipRotate0: return PixelPoint(x: w - 1 - x, y: y)
        case .flipRotate90: return PixelPoint(x: h - 1 - y, y: w - 1 - x)
        case .flipRotate180: return PixelPoint(x: x, y: h - 1 - y)
        case .flipRotate270: return PixelPoint(x: y, y: x)
        }
    }
}

extension VideoFrame {
    /// Writes this frame turned upright by `orientation` into `destination` (same format, size
    /// `orientation.outputSize(for: size)`); a whole-frame pass by nature. Each plane is
    /// turned on its own grid, which keeps 4:2:0 chroma on its luma block also for odd sizes
    /// (chroma column k of a mirrored odd-width picture lands on luma 2k of the output).
    public func rotated(_ orientation: Orientation, into destination: VideoFrame) {
        precondition(destination.format == format, "rotating \(format) into \(destination.format)")
        precondition(destination.size == orientation.outputSize(for: size), "destination size must be \(orientation.outputSize(for: size))")
        for index in 0..<format.planeCount {
            let source = plane(index), target = destination.plane(index)
            switch source.bytesPerPixel {
            case 1: Self.rotate(source, into: target, orientation, UInt8.self)
            case 2: Self.rotate(source, into: target, orientation, UInt16.self)
            default: Self.rotate(source, into: target, orientation, UInt32.self)
            }
        }
    }

    /// Tiles of 32×32 keep both the rows read and the rows written in cache when axes swap.
    private static func rotate<Sample: FixedWidthInteger>(_ source: PixelPlane, into target: PixelPlane,
                                                          _ orientation: Orientation, _: Sample.Type) {
        let output = PixelSize(width: target.width, height: target.height)
        let size = MemoryLayout<Sample>.size
        if !orientation.swapsAxes {
            for y in 0..<output.height {
                let first = orientation.sourcePosition(x: 0, y: y, output: output)
                let mirrored = orientation == .flipRotate0 || orientation == .rotate180
                let from = UnsafeRawPointer(source.row(first.y)), to = UnsafeMutableRawPointer(target.row(y))
                if !mirrored {
                    to.copyMemory(from: from, byteCount: output.width * size)
                } else {
                    for x in 0..<output.width {
                        to.storeBytes(of: from.loadUnaligned(fromByteOffset: (output.width - 1 - x) * size, as: Sample.self),
                                      toByteOffset: x * size, as: Sample.self)
                    }
                }
            }
            return
        }
        // The source position is affine in (x, y): walk it with two byte steps.
        let origin = orientation.sourcePosition(x: 0, y: 0, output: output)
        let right = orientation.sourcePosition(x: Swift.min(1, output.width - 1), y: 0, output: output)
        let down = orientation.sourcePosition(x: 0, y: Swift.min(1, output.height - 1), output: output)
        let stepX = (right.x - origin.x) * size + (right.y - origin.y) * source.stride
        let stepY = (down.x - origin.x) * size + (down.y - origin.y) * source.stride
        let start = UnsafeRawPointer(source.pixel(x: origin.x, y: origin.y))
        let tile = 32
        for tileY in stride(from: 0, to: output.height, by: tile) {
            for tileX in stride(from: 0, to: output.width, by: tile) {
                for y in tileY..<Swift.min(tileY + tile, output.height) {
                    let to = UnsafeMutableRawPointer(target.row(y))
                    var from = start + y * stepY + tileX * stepX
                    for x in tileX..<Swift.min(tileX + tile, output.width) {
                        to.storeBytes(of: from.loadUnaligned(as: Sample.self), toByteOffset: x * size, as: Sample.self)
                        from += stepX
                    }
                }
            }
        }
    }
}
