// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// pipcompositor's output caps policy. Format: the main picture's own when downstream takes
/// it, else the first of the template's formats downstream takes (4:2:0 keeps the main
/// picture's colorimetry). Size: the main picture upright, unless downstream fixes it. Frame
/// rate: the fastest input's, or the main input's max-framerate when every input is variable
/// (ReplayKit). The C vfuncs only forward here.
enum PipOutputCaps {
    /// The sink pads in z-order, snapshotted for `body` (references dropped after it).
    static func withPads<R>(_ element: UnsafeMutablePointer<RcPipCompositor>,
                            _ body: (UnsafeMutableBufferPointer<PadSnapshot>) -> R) -> R {
        var settings = RcPipCompositorSettings(), output = GstVideoInfo()
        let total = PadSnapshot.take(element, settings: &settings, output: &output, into: nil, capacity: 0)
        let pads = UnsafeMutablePointer<PadSnapshot>.allocate(capacity: Swift.max(total, 1))
        defer { pads.deallocate() }
        let count = total == 0 ? 0
            : Swift.min(total, PadSnapshot.take(element, settings: &settings, output: &output, into: pads, capacity: total))
        defer { PadSnapshot.release(pads, count: count) }
        return body(UnsafeMutableBufferPointer(start: pads, count: count))
    }

    private static func hasFlag(_ info: GstVideoInfo, _ flag: GstVideoFormatFlags) -> Bool {
        guard let finfo = info.finfo else { return false }
        return finfo.pointee.flags.rawValue & flag.rawValue != 0
    }

    private static func hasFormat(_ info: GstVideoInfo) -> Bool {
        info.finfo != nil && info.finfo.pointee.format != GST_VIDEO_FORMAT_UNKNOWN
    }

    static func bestFormat(_ element: UnsafeMutablePointer<RcPipCompositor>, downstream: UnsafeMutablePointer<GstCaps>,
                           best: UnsafeMutablePointer<GstVideoInfo>, alpha: UnsafeMutablePointer<gboolean>) {
        let infos = withPads(element) { pads in pads.map(\.info).filter(hasFormat) }
        if infos.contains(where: { hasFlag($0, GST_VIDEO_FORMAT_FLAG_ALPHA) }) { alpha.pointee = 1 }
        gst_video_info_init(best)
        guard let main = infos.first else { return }
        let supported = rc_pipcompositor_template_caps()!
        defer { gst_caps_unref(supported) }
        let formats = gst_structure_get_value(gst_caps_get_structure(supported, 0), "format")
        var candidate = main
        for index in 0...Int(gst_value_list_get_size(formats)) {
            if index > 0 {
                let name = g_value_get_string(gst_value_list_get_value(formats, guint(index - 1)))
                gst_video_info_set_format(&candidate, gst_video_format_from_string(name), guint(main.width), guint(main.height))
                if hasFlag(candidate, GST_VIDEO_FORMAT_FLAG_YUV) && hasFlag(main, GST_VIDEO_FORMAT_FLAG_YUV) {
                    candidate.colorimetry = main.colorimetry
                    candidate.chroma_site = main.chroma_site
                }
            }
            let possible = gst_video_info_to_caps(&candidate)!
            let structure = gst_caps_get_structure(possible, 0)
            for field in ["width", "height", "framerate", "pixel-aspect-ratio", "interlace-mode"] {
                gst_structure_remove_field(structure, field)
            }
            let fits = gst_caps_can_intersect(possible, supported) != 0 && gst_caps_can_intersect(possible, downstream) != 0
            gst_caps_unref(possible)
            if fits {
                best.pointee = candidate
                return
            }
        }
    }

    static func fixate(_ element: UnsafeMutablePointer<RcPipCompositor>,
                       _ caps: UnsafeMutablePointer<GstCaps>) -> UnsafeMutablePointer<GstCaps> {
        let size = preferredSize(element)
        var rate = (n: gint(0), d: gint(1)), fastest = 0.0
        var maximum = (n: gint(0), d: gint(1))
        withPads(element) { pads in
            var first = true
            for pad in pads where pad.info.width != 0 {
                if first, let current = gst_pad_get_current_caps(UnsafeMutablePointer<GstPad>(OpaquePointer(pad.pad))) {
                    gst_structure_get_fraction(gst_caps_get_structure(current, 0), "max-framerate", &maximum.n, &maximum.d)
                    gst_caps_unref(current)
                }
                first = false
                var fps = 0.0
                if pad.info.fps_n > 0 && pad.info.fps_d > 0 { gst_util_fraction_to_double(pad.info.fps_n, pad.info.fps_d, &fps) }
                if fps > fastest {
                    fastest = fps
                    rate = (pad.info.fps_n, pad.info.fps_d)
                }
            }
        }
        if rate.n <= 0 { rate = maximum.n > 0 && maximum.d > 0 ? maximum : (25, 1) }

        let writable = rc_caps_make_writable(caps)!
        let structure = gst_caps_get_structure(writable, 0)
        if let size, size.width > 0, size.height > 0 {
            gst_structure_fixate_field_nearest_int(structure, "width", gint(size.width))
            gst_structure_fixate_field_nearest_int(structure, "height", gint(size.height))
        }
        gst_structure_fixate_field_nearest_fraction(structure, "framerate", rate.n, rate.d)
        if gst_structure_has_field(structure, "pixel-aspect-ratio") != 0 {
            gst_structure_fixate_field_nearest_fraction(structure, "pixel-aspect-ratio", 1, 1)
        }
        return gst_caps_fixate(writable)
    }

    /// Negotiation (aggregator thread, before frames are made): the main picture's upright
    /// size, with the orientation waiting for its next buffer if there is one; else the
    /// largest input.
    static func preferredSize(_ element: UnsafeMutablePointer<RcPipCompositor>) -> PixelSize? {
        withPads(element) { pads -> PixelSize? in
            guard let first = pads.first else { return nil }
            if let main = VideoFormat(first.info) {
                let layer = PictureLayer.of(first.pad!)
                let upright = layer.pendingOrientation ?? layer.orientation
                return upright.outputSize(for: main.size)
            }
            var largest: PixelSize?
            for pad in pads {
                guard let format = VideoFormat(pad.info) else { continue }
                largest = PixelSize(width: Swift.max(largest?.width ?? 0, format.size.width),
                                    height: Swift.max(largest?.height ?? 0, format.size.height))
            }
            return largest
        }
    }
}

@_cdecl("rc_pipcompositor_find_best_format")
func pipcompositorFindBestFormat(_ element: UnsafeMutablePointer<RcPipCompositor>, _ downstream: UnsafeMutablePointer<GstCaps>,
                                 _ best: UnsafeMutablePointer<GstVideoInfo>, _ alpha: UnsafeMutablePointer<gboolean>) {
    PipOutputCaps.bestFormat(element, downstream: downstream, best: best, alpha: alpha)
}

@_cdecl("rc_pipcompositor_fixate_src_caps")
func pipcompositorFixateSrcCaps(_ element: UnsafeMutablePointer<RcPipCompositor>,
                                _ caps: UnsafeMutablePointer<GstCaps>) -> UnsafeMutablePointer<GstCaps> {
    PipOutputCaps.fixate(element, caps)
}
