// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels

extension PixelFormat {
    /// nil for the formats our pixel kernels do not handle.
    init?(_ format: GstVideoFormat) {
        switch format {
        case GST_VIDEO_FORMAT_NV12: self = .nv12
        case GST_VIDEO_FORMAT_I420: self = .i420
        case GST_VIDEO_FORMAT_RGBA: self = .rgba
        case GST_VIDEO_FORMAT_BGRA: self = .bgra
        default: return nil
        }
    }

    var gstFormat: GstVideoFormat {
        switch self {
        case .nv12: GST_VIDEO_FORMAT_NV12
        case .i420: GST_VIDEO_FORMAT_I420
        case .rgba: GST_VIDEO_FORMAT_RGBA
        case .bgra: GST_VIDEO_FORMAT_BGRA
        }
    }
}

extension ColorSpace {
    /// The (matrix, range) of YUV caps; nil for matrices and ranges our kernels do not know
    /// (those go through GstVideoConverter).
    init?(_ colorimetry: GstVideoColorimetry) {
        let matrix: ColorMatrix, range: ColorRange
        switch colorimetry.matrix {
        case GST_VIDEO_COLOR_MATRIX_BT601: matrix = .bt601
        case GST_VIDEO_COLOR_MATRIX_BT709: matrix = .bt709
        default: return nil
        }
        switch colorimetry.range {
        case GST_VIDEO_COLOR_RANGE_0_255: range = .full
        case GST_VIDEO_COLOR_RANGE_16_235: range = .limited
        default: return nil
        }
        self.init(matrix: matrix, range: range)
    }
}

/// The part of a negotiated `GstVideoInfo` the drawing code decides on.
struct VideoFormat: Equatable {
    var format: PixelFormat
    var size: PixelSize
    /// For YUV: matrix and range if our kernels know them.
    var colorSpace: ColorSpace?
    /// The raw matrix and range, to tell "same colours" when `colorSpace` is nil.
    var matrix: GstVideoColorMatrix
    var range: GstVideoColorRange

    init?(_ info: GstVideoInfo) {
        guard let finfo = info.finfo, let format = PixelFormat(finfo.pointee.format), info.width > 0, info.height > 0 else {
            return nil
        }
        self.format = format
        size = PixelSize(width: Int(info.width), height: Int(info.height))
        colorSpace = format.isYUV ? ColorSpace(info.colorimetry) : nil
        matrix = format.isYUV ? info.colorimetry.matrix : GST_VIDEO_COLOR_MATRIX_UNKNOWN
        range = format.isYUV ? info.colorimetry.range : GST_VIDEO_COLOR_RANGE_UNKNOWN
    }

    /// Same bytes mean the same colours: same format and, for YUV, same matrix and range
    /// (transfer and primaries are not converted, as in videoconvert's defaults).
    func sameColours(as other: VideoFormat) -> Bool {
        format == other.format && matrix == other.matrix && range == other.range
    }

    /// Colour space for colours given in RGB (background, border): BT.709 when the caps name
    /// a matrix our kernels do not know.
    var drawingSpace: ColorSpace {
        colorSpace ?? ColorSpace(matrix: .bt709, range: range == GST_VIDEO_COLOR_RANGE_0_255 ? .full : .limited)
    }
}

/// Runs `body` on `buffer` mapped as a video frame of `info` (read-only or writable), given
/// both as the mapped `GstVideoFrame` and as a kernel view; nil if it cannot be mapped or its
/// format is not ours. Allocates nothing.
func withMappedFrame<R>(_ buffer: UnsafeMutablePointer<GstBuffer>, info: UnsafePointer<GstVideoInfo>, write: Bool,
                        _ body: (UnsafeMutablePointer<GstVideoFrame>, VideoFrame) -> R) -> R? {
    guard let format = info.pointee.finfo.flatMap({ PixelFormat($0.pointee.format) }) else { return nil }
    var frame = GstVideoFrame()
    guard gst_video_frame_map(&frame, info, buffer, write ? GST_MAP_WRITE : GST_MAP_READ) != 0 else { return nil }
    defer { gst_video_frame_unmap(&frame) }
    let view = VideoFrame(mapped: frame, format: format)
    return body(&frame, view)
}

/// A picture-sized buffer the element owns (conversion and rotation results), mapped for its
/// whole life so per-frame use costs no mapping. Built when the geometry changes.
final class ScratchFrame {
    private let buffer: UnsafeMutablePointer<GstBuffer>
    var frame = GstVideoFrame()
    let view: VideoFrame

    /// `colorimetry` matters only as a GstVideoConverter target.
    init?(format: PixelFormat, size: PixelSize, colorimetry: GstVideoColorimetry? = nil) {
        var info = GstVideoInfo()
        gst_video_info_init(&info)
        guard gst_video_info_set_format(&info, format.gstFormat, guint(size.width), guint(size.height)) != 0 else { return nil }
        if let colorimetry, format.isYUV { info.colorimetry = colorimetry }
        guard let buffer = gst_buffer_new_allocate(nil, info.size, nil) else { return nil }
        var mapped = GstVideoFrame()
        guard gst_video_frame_map(&mapped, &info, buffer, GST_MAP_WRITE) != 0 else {
            gst_buffer_unref(buffer)
            return nil
        }
        self.buffer = buffer
        frame = mapped
        view = VideoFrame(mapped: mapped, format: format)
    }

    deinit {
        gst_video_frame_unmap(&frame)
        gst_buffer_unref(buffer)
    }
}

extension VideoFrame {
    /// Views a mapped `GstVideoFrame` (plane pointers and strides from it); allocates nothing.
    init(mapped frame: GstVideoFrame, format: PixelFormat) {
        let width = Int(frame.info.width), height = Int(frame.info.height)
        func plane(_ index: Int, _ data: UnsafeMutableRawPointer?, _ stride: gint) -> PixelPlane {
            let size = format.planeSize(index, width: width, height: height)
            return PixelPlane(base: data!.assumingMemoryBound(to: UInt8.self), stride: Int(stride),
                              width: size.width, height: size.height, bytesPerPixel: format.bytesPerPixel(plane: index))
        }
        let strides = frame.info.stride
        switch format.planeCount {
        case 1:
            self.init(format: format, width: width, height: height, plane(0, frame.data.0, strides.0))
        case 2:
            self.init(format: format, width: width, height: height, plane(0, frame.data.0, strides.0),
                      plane(1, frame.data.1, strides.1))
        default:
            self.init(format: format, width: width, height: height, plane(0, frame.data.0, strides.0),
                      plane(1, frame.data.1, strides.1), plane(2, frame.data.2, strides.2))
        }
    }
}
