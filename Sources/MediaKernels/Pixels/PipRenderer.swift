// SPDX-License-Identifier: LGPL-2.1-or-later
/// Decorations of a PiP.
public struct PipStyle: Hashable, Sendable {
    /// Width in luma pixels of a border drawn inside the PiP rectangle; 0 for none.
    public var borderWidth: Int
    public var borderColor: RGBColor
    /// Radius in luma pixels of the outer corners; 0 for square corners.
    public var cornerRadius: Double
    /// Smooth (coverage-weighted) curved edges instead of a hard in/out test.
    public var antialiased: Bool

    public init(borderWidth: Int = 0, borderColor: RGBColor = .white, cornerRadius: Double = 0, antialiased: Bool = true) {
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.cornerRadius = cornerRadius
        self.antialiased = antialiased
    }

    public var isPlain: Bool { borderWidth <= 0 && cornerRadius <= 0 }
}

/// Draws one PiP stream into main frames, in place: scale if needed, then copy, blend or
/// composite with border and rounded corners. Build it when caps, PiP size or style change;
/// per frame `draw` allocates nothing and its cost follows the PiP area. Not for concurrent
/// use.
///
/// Paths, chosen per call:
/// - plain style, same size: `VideoFrame.draw` (bit-exact with compositor);
/// - plain style, scaled, alpha 1: the scaler writes straight into the main frame;
/// - otherwise: scale into an owned PiP-sized scratch frame, then composite. Runs of fully
///   picture samples use compositor's formulas (copy at alpha 1, `(d·(256−a)+s·a)>>8` in
///   4:2:0); runs of full border fill or blend the border colour the same way; the few
///   partially covered samples (curves, chroma straddling a border edge) are mixed as
///   (picture·P + border·B + main·(255−P−B)) / 255 with P, B the coverages times alpha.
public final class PipRenderer {
    public let format: PixelFormat
    public let sourceSize: PixelSize
    public let size: PixelSize
    public let style: PipStyle
    private let scaler: Scaler?
    private let scratch: UnsafeMutableRawPointer?
    private let scratchLayout: FrameLayout
    private let mask: CoverageMask?
    private let borderColor: PlaneColor

    /// - Parameters:
    ///   - colorSpace: of the main frame, to convert `style.borderColor` (ignored for RGB).
    public init(format: PixelFormat, source: PixelSize, size: PixelSize, style: PipStyle = PipStyle(),
                colorSpace: ColorSpace = .screenCapture, scaling: ScalingMethod = .automatic,
                chromaSiting: ChromaSiting = .center) {
        precondition(!source.isEmpty && !size.isEmpty, "empty PiP")
        self.format = format
        self.sourceSize = source
        self.size = size
        self.style = style
        scaler = source == size ? nil
            : Scaler(from: source, to: size, format: format, method: scaling, chromaSiting: chromaSiting)
        scratchLayout = FrameLayout.gstreamerDefault(format: format, width: size.width, height: size.height)
        if scaler != nil {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: scratchLayout.byteCount, alignment: 64)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: scratchLayout.byteCount)
            scratch = buffer
        } else {
            scratch = nil
        }
        mask = style.isPlain ? nil
            : CoverageMask(size: size, borderWidth: style.borderWidth, cornerRadius: style.cornerRadius,
                           antialiased: style.antialiased, subsampledChroma: format.isYUV)
        borderColor = PlaneColor(style.borderColor, format: format, space: colorSpace)
    }

    deinit { scratch?.deallocate() }

    /// Draws `source` (of `sourceSize`) scaled to `size` with its top-left corner at
    /// `position` (snapped and clipped as `Placement` says), `alpha` 0…1 as compositor's pad
    /// property.
    public func draw(_ source: VideoFrame, into main: VideoFrame, at position: PixelPoint, alpha: Double = 1) {
        precondition(source.format == format && main.format == format, "renderer built for \(format)")
        precondition(source.size == sourceSize, "renderer built for \(sourceSize), got \(source.size)")
        guard alpha > 0 else { return }
        let placement = Placement(format: format, frame: main.size, origin: position, content: size)
        guard !placement.isEmpty else { return }
        if mask == nil, let scaler, alpha >= 1 {
            scaler.scale(source, into: main, at: position)
            return
        }
        var content = source
        if let scaler, let scratch {
            content = VideoFrame(base: scratch, layout: scratchLayout)
            scaler.scale(source, into: content)
        }
        guard let mask else {
            main.draw(content, at: position, alpha: alpha)
            return
        }
        composite(content, into: main, placement: placement, mask: mask, alpha: Swift.min(Swift.max(Int(alpha * 255), 0), 255))
    }

    private func composite(_ content: VideoFrame, into main: VideoFrame, placement: Placement, mask: CoverageMask, alpha: Int) {
        let packed = !format.isYUV
        for index in 0..<format.planeCount {
            let span = placement.span(plane: index)
            let target = main.plane(index), picture = content.plane(index)
            let coverage = mask.plane(subsampled: format.subsampling(plane: index) > 0)
            let colour = borderColor.bytes[index], bpp = target.bytesPerPixel
            let visibleStart = span.sourceX, visibleEnd = span.sourceX + span.width
            for row in span.sourceY..<(span.sourceY + span.height) {
                let destinationRow = target.row(span.destinationY + row - span.sourceY) + (span.destinationX - span.sourceX) * bpp
                let pictureRow = picture.row(row)
                for run in coverage.runs[coverage.rowStarts[row]..<coverage.rowStarts[row + 1]] {
                    let start = Swift.max(run.start, visibleStart), end = Swift.min(run.start + run.count, visibleEnd)
                    guard end > start else { continue }
                    let d = destinationRow + start * bpp, s = UnsafePointer(pictureRow + start * bpp)
                    switch run.kind {
                    case .outside:
                        break
                    case .picture:
                        if packed {
                            RowKernels.blendPacked(d, s, pixels: end - start, alpha: alpha)
                        } else if alpha == 255 {
                            d.update(from: s, count: (end - start) * bpp)
                        } else {
                            RowKernels.blend(d, s, count: (end - start) * bpp, alpha: alpha)
                        }
                    case .border:
                        if alpha == 255 {
                            RowKernels.fill(d, count: end - start, pattern: colour)
                        } else {
                            RowKernels.blend(d, count: end - start, pattern: colour, alpha: alpha)
                            if packed { for pixel in 0..<(end - start) { d[pixel * 4 + 3] = 255 } }
                        }
                    case .mixed:
                        for x in start..<end {
                            let outer = Int(coverage.outer[row * coverage.width + x])
                            let inner = Int(coverage.inner[row * coverage.width + x])
                            Self.mix(d + (x - start) * bpp, s + (x - start) * bpp, colour: colour, bytes: bpp,
                                     outer: outer, inner: inner, alpha: alpha, packed: packed)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func mix(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, colour: [UInt8], bytes: Int,
                            outer: Int, inner: Int, alpha: Int, packed: Bool) {
        var picture = RowKernels.divide255(inner * alpha)
        let total = RowKernels.divide255(outer * alpha)
        let border = total - picture
        if packed { picture = RowKernels.divide255(picture * Int(s[3])) }
        let main = 255 - picture - border
        let channels = packed ? 3 : bytes
        for c in 0..<channels {
            d[c] = UInt8(RowKernels.divide255(Int(s[c]) * picture + Int(colour[c]) * border + Int(d[c]) * main))
        }
        if packed { d[3] = 255 }
    }
}
