// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// Draws one input's pictures into output frames: colour conversion of that input only when
/// its format or colours differ from the output's, rotation (main picture), then scaling,
/// border and corners with `PipRenderer`. Everything is built in `configure` when the
/// geometry changes; `draw` allocates nothing, holds no lock, and costs in proportion to this
/// input's picture. One per pad, used by the aggregator thread only.
final class PictureLayer {
    struct Configuration: Equatable {
        var source: VideoFormat
        var output: VideoFormat
        var orientation: Orientation
        /// Size drawn in the output.
        var size: PixelSize
        var style: PipStyle
    }

    private enum Conversion {
        case none
        /// Same 4:2:0 format, other matrix or range: our fixed-point transform.
        case transform(ColorTransform, ScratchFrame)
        /// Another format: GstVideoConverter. Between 4:2:0 formats it only repacks the
        /// planes (same colorimetry and chroma siting, so no chroma resampling) and our
        /// transform then fixes the colours in place; from RGB, or for colours our kernels do
        /// not know, it converts everything.
        case converter(OpaquePointer, ScratchFrame, ColorTransform?)
    }

    private(set) var configuration: Configuration?
    private var conversion = Conversion.none
    private var rotation: ScratchFrame?
    private var renderer: PipRenderer?

    /// Last buffer seen on the pad (pointer and PTS), to tell a new buffer from a repeated one.
    private var lastBuffer: (UnsafeMutableRawPointer, GstClockTime)?

    /// image-orientation of the pad's pictures. A TAG event's orientation applies from the
    /// pad's next buffer on: serialized events and buffers both reach the aggregator thread,
    /// this state's only user.
    var orientation = Orientation.rotate0
    var pendingOrientation: Orientation?

    deinit { release() }

    /// Whether `buffer` differs from the one seen last time (pools reuse pointers, so the
    /// timestamp is compared too).
    func isNewBuffer(_ buffer: UnsafeMutablePointer<GstBuffer>?) -> Bool {
        guard let buffer else {
            lastBuffer = nil
            return false
        }
        let key = (UnsafeMutableRawPointer(buffer), buffer.pointee.pts)
        defer { lastBuffer = key }
        guard let last = lastBuffer else { return true }
        return last.0 != key.0 || last.1 != key.1
    }

    /// Builds what drawing `configuration` needs, unless it is what is built already. Returns
    /// false (and draws nothing later) if a converter cannot be made.
    @discardableResult
    func configure(_ configuration: Configuration, sourceInfo: UnsafePointer<GstVideoInfo>,
                   outputInfo: UnsafePointer<GstVideoInfo>) -> Bool {
        if configuration == self.configuration { return renderer != nil }
        release()
        self.configuration = configuration
        let source = configuration.source, output = configuration.output
        if !source.sameColours(as: output) {
            let spaces = source.colorSpace.flatMap { from in output.colorSpace.map { (from, $0) } }
            if source.format == output.format, let (from, to) = spaces,
               let scratch = ScratchFrame(format: output.format, size: source.size) {
                conversion = .transform(ColorTransform(from: from, to: to), scratch)
            } else {
                let repack = source.format.isYUV && output.format.isYUV && spaces != nil
                guard let scratch = ScratchFrame(format: output.format, size: source.size,
                                                 colorimetry: repack ? sourceInfo.pointee.colorimetry : outputInfo.pointee.colorimetry)
                else { return false }
                var target = scratch.frame.info
                // The converter wants everything but the picture format alike.
                target.fps_n = sourceInfo.pointee.fps_n
                target.fps_d = sourceInfo.pointee.fps_d
                target.par_n = sourceInfo.pointee.par_n
                target.par_d = sourceInfo.pointee.par_d
                target.interlace_mode = sourceInfo.pointee.interlace_mode
                if repack { target.chroma_site = sourceInfo.pointee.chroma_site }
                guard let converter = gst_video_converter_new(sourceInfo, &target, nil) else { return false }
                let transform = repack && spaces!.0 != spaces!.1 ? ColorTransform(from: spaces!.0, to: spaces!.1) : nil
                conversion = .converter(converter, scratch, transform)
            }
        }
        let upright = configuration.orientation.outputSize(for: source.size)
        if configuration.orientation != .rotate0 {
            guard let scratch = ScratchFrame(format: output.format, size: upright) else { return false }
            rotation = scratch
        }
        guard !configuration.size.isEmpty else { return false }
        renderer = PipRenderer(format: output.format, source: upright, size: configuration.size, style: configuration.style,
                               colorSpace: output.drawingSpace)
        return true
    }

    /// Draws `source` (a mapped frame of the configured source format) into `output` with its
    /// top-left corner at `origin`.
    func draw(_ source: UnsafeMutablePointer<GstVideoFrame>, view: VideoFrame, into output: VideoFrame,
              at origin: PixelPoint, alpha: Double) {
        guard let renderer, let configuration, alpha > 0 else { return }
        var content = view
        switch conversion {
        case .none:
            break
        case .transform(let transform, let scratch):
            transform.apply(view, into: scratch.view)
            content = scratch.view
        case .converter(let converter, let scratch, let transform):
            gst_video_converter_frame(converter, source, &scratch.frame)
            transform?.apply(scratch.view, into: scratch.view)
            content = scratch.view
        }
        if let rotation {
            content.rotated(configuration.orientation, into: rotation.view)
            content = rotation.view
        }
        renderer.draw(content, into: output, at: origin, alpha: alpha)
    }

    private func release() {
        if case .converter(let converter, _, _) = conversion { gst_video_converter_free(converter) }
        conversion = .none
        rotation = nil
        renderer = nil
        configuration = nil
    }
}
