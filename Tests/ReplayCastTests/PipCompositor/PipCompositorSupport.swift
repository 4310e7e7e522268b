// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import MediaKernels
@testable import ReplayCast
import ReplayCastSupport

/// A video frame copied out of a pipeline: planes packed row after row (no padding), so
/// frames of the same caps compare byte for byte whatever the strides of the buffers.
struct GrabbedFrame: Equatable {
    var format: PixelFormat
    var width: Int
    var height: Int
    var pts: UInt64
    var planes: [[UInt8]]

    var size: PixelSize { PixelSize(width: width, height: height) }

    func planeSize(_ index: Int) -> PixelSize { format.planeSize(index, width: width, height: height) }

    /// Byte `channel` of sample (x, y) of `plane` (sample positions of that plane).
    func sample(_ plane: Int, _ x: Int, _ y: Int, _ channel: Int = 0) -> UInt8 {
        let bpp = format.bytesPerPixel(plane: plane)
        return planes[plane][(y * planeSize(plane).width + x) * bpp + channel]
    }

    /// Luma and the chroma pair of the 2×2 block holding luma pixel (x, y) (4:2:0 formats).
    func yuv(_ x: Int, _ y: Int) -> YUVColor {
        switch format {
        case .nv12: YUVColor(y: sample(0, x, y), u: sample(1, x / 2, y / 2, 0), v: sample(1, x / 2, y / 2, 1))
        case .i420: YUVColor(y: sample(0, x, y), u: sample(1, x / 2, y / 2), v: sample(2, x / 2, y / 2))
        default: preconditionFailure("yuv of \(format)")
        }
    }

    /// The frame as a kernel view over a private copy, for drawing references.
    func withView<R>(_ body: (VideoFrame) -> R) -> R {
        let layout = FrameLayout.gstreamerDefault(format: format, width: width, height: height)
        let base = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
        defer { base.deallocate() }
        let view = VideoFrame(base: base, layout: layout)
        for index in 0..<format.planeCount {
            let plane = view.plane(index)
            planes[index].withUnsafeBytes { bytes in
                for row in 0..<plane.height {
                    plane.row(row).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * plane.rowBytes,
                                          count: plane.rowBytes)
                }
            }
        }
        return body(view)
    }

    /// The `rect` part of this frame (packed the same way), e.g. the PiP area.
    func cropped(_ rect: PixelRect) -> GrabbedFrame {
        var out = GrabbedFrame(format: format, width: rect.width, height: rect.height, pts: pts, planes: [])
        for index in 0..<format.planeCount {
            let shift = format.subsampling(plane: index), bpp = format.bytesPerPixel(plane: index)
            let size = out.planeSize(index), full = planeSize(index)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(size.width * size.height * bpp)
            for row in 0..<size.height {
                let start = (((rect.y >> shift) + row) * full.width + (rect.x >> shift)) * bpp
                bytes += planes[index][start..<(start + size.width * bpp)]
            }
            out.planes.append(bytes)
        }
        return out
    }
}

/// Collects the frames passing a pad, copied out in `GrabbedFrame` form, from a pad probe.
final class FrameGrabber: Sendable {
    private struct State {
        var caps = ""
        var frames: [GrabbedFrame] = []
        var onBuffer: (@Sendable (Int) -> Void)?
    }

    private let state = Locked(State())

    var frames: [GrabbedFrame] { state.withLock { $0.frames } }

    /// `onBuffer` runs in the streaming thread after the n-th buffer (0-based) was copied.
    func attach(to bin: UnsafeMutablePointer<GstElement>, element name: String, pad padName: String = "sink",
                onBuffer: (@Sendable (Int) -> Void)? = nil) {
        state.withLock { $0.onBuffer = onBuffer }
        let element = gst_bin_get_by_name(rc_bin(bin), name)!
        let pad = gst_element_get_static_pad(element, padName)!
        let mask = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        let context = Unmanaged.passRetained(self).toOpaque()
        gst_pad_add_probe(pad, mask, { _, info, context in
            Unmanaged<FrameGrabber>.fromOpaque(context!).takeUnretainedValue().record(info!)
            return GST_PAD_PROBE_OK
        }, context, { context in Unmanaged<FrameGrabber>.fromOpaque(context!).release() })
        gst_object_unref(pad)
        gst_object_unref(element)
    }

    private func record(_ probe: UnsafeMutablePointer<GstPadProbeInfo>) {
        if probe.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue == 0 {
            let event = probe.pointee.data.assumingMemoryBound(to: GstEvent.self)
            guard rc_event_type(event) == GST_EVENT_CAPS else { return }
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            let text = gst_caps_to_string(caps)!
            let string = String(cString: text)
            g_free(text)
            state.withLock { $0.caps = string }
            return
        }
        let buffer = probe.pointee.data.assumingMemoryBound(to: GstBuffer.self)
        let text = state.withLock { $0.caps }
        var info = GstVideoInfo()
        guard let caps = gst_caps_from_string(text) else { return }
        let parsed = gst_video_info_from_caps(&info, caps)
        gst_caps_unref(caps)
        guard parsed != 0, let format = info.finfo.flatMap({ PixelFormat($0.pointee.format) }) else { return }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { return }
        let view = VideoFrame(mapped: frame, format: format)
        var planes: [[UInt8]] = []
        for index in 0..<format.planeCount {
            let plane = view.plane(index)
            var bytes = [UInt8](repeating: 0, count: plane.rowBytes * plane.height)
            bytes.withUnsafeMutableBufferPointer { out in
                for row in 0..<plane.height {
                    (out.baseAddress! + row * plane.rowBytes).update(from: plane.row(row), count: plane.rowBytes)
                }
            }
            planes.append(bytes)
        }
        gst_video_frame_unmap(&frame)
        let grabbed = GrabbedFrame(format: format, width: view.width, height: view.height, pts: UInt64(buffer.pointee.pts),
                                   planes: planes)
        let (index, callback) = state.withLock { state -> (Int, (@Sendable (Int) -> Void)?) in
            state.frames.append(grabbed)
            return (state.frames.count - 1, state.onBuffer)
        }
        callback?(index)
    }
}

/// Caps of a raw video branch, colorimetry stated: left out, GStreamer picks a default by frame
/// size (BT.601 for SD, BT.709 for HD), so branches of different sizes can disagree, and an
/// input whose colorimetry differs from the output's is converted, which a test did not ask for.
func videoCaps(_ format: PixelFormat, _ width: Int, _ height: Int, fps: String = "30/1",
               colorimetry: String = "bt709") -> String {
    let colour = format.isYUV ? ",colorimetry=\(colorimetry)" : ""
    return "video/x-raw,format=\(format),width=\(width),height=\(height),framerate=\(fps),pixel-aspect-ratio=1/1\(colour)"
}

/// Sets pad properties of a request pad of `element` in `pipeline` (g_object_set is variadic).
func setPadProperty(_ pipeline: UnsafeMutablePointer<GstElement>, element: String, pad: String, _ name: String,
                    _ value: String) {
    let owner = gst_bin_get_by_name(rc_bin(pipeline), element)!
    defer { gst_object_unref(owner) }
    let target = gst_element_get_static_pad(owner, pad)!
    defer { gst_object_unref(target) }
    gst_util_set_object_arg(rc_gobject(target), name, value)
}

/// How many output frames each of pipcompositor's plans made (PipCompositor.Plan).
struct PlanCounts: Equatable {
    var taken = 0, reuseHeld = 0, copyHeld = 0, copyMain = 0, compose = 0
}

/// Counts plans from pipcompositor's debug log, as a user reading GST_DEBUG=pipcompositor:6
/// would: each output frame is one LOG line "frame at … ns: <plan>, main picture …".
///
/// Made once per test process: from then on pipcompositor logs at LOG, through this log
/// function, which hands GStreamer's default output only what GST_DEBUG asked for.
final class PlanLog: @unchecked Sendable {
    private static let shared = PlanLog()
    private let lock = NSLock()
    private var watched: [UnsafeMutableRawPointer: PlanCounts] = [:]
    private let category: UnsafeMutablePointer<GstDebugCategory>
    /// pipcompositor's threshold as GST_DEBUG set it: what the default output still gets.
    private let asked: GstDebugLevel

    private init() {
        GStreamerSetup.ensure()
        var found: UnsafeMutablePointer<GstDebugCategory>?
        let all = gst_debug_get_all_categories()
        defer { g_slist_free(all) }
        var node = all
        while let item = node, found == nil {
            let category = item.pointee.data.assumingMemoryBound(to: GstDebugCategory.self)
            if String(cString: gst_debug_category_get_name(category)) == "pipcompositor" { found = category }
            node = item.pointee.next
        }
        category = found!
        asked = gst_debug_category_get_threshold(category)
        gst_debug_category_set_threshold(category, GST_LEVEL_LOG)
        gst_debug_add_log_function({ category, level, file, function, line, object, message, data in
            let log = Unmanaged<PlanLog>.fromOpaque(data!).takeUnretainedValue()
            if category == log.category {
                log.count(level, object, message)
                guard level.rawValue <= log.asked.rawValue else { return }
            }
            gst_debug_log_default(category, level, file, function, line, object, message, nil)
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gst_debug_remove_log_function(gst_debug_log_default)
    }

    /// Starts counting the plans of `element` (a pipcompositor), before it plays.
    static func watch(_ element: UnsafeMutablePointer<GstElement>) {
        shared.lock.withLock { shared.watched[UnsafeMutableRawPointer(element)] = PlanCounts() }
    }

    /// The plans `element` used since `watch`, which stops counting.
    static func counts(_ element: UnsafeMutablePointer<GstElement>) -> PlanCounts {
        shared.lock.withLock { shared.watched.removeValue(forKey: UnsafeMutableRawPointer(element)) ?? PlanCounts() }
    }

    /// Counts the plan a line names (PipCompositor.Plan's descriptions); false for none.
    private static func count(_ plan: Substring, in counts: inout PlanCounts) -> Bool {
        if plan.hasPrefix("PiPs drawn into the main buffer itself") { counts.taken += 1 }
        else if plan.hasPrefix("PiPs drawn into the held output again") { counts.reuseHeld += 1 }
        else if plan.hasPrefix("held output copied") { counts.copyHeld += 1 }
        else if plan.hasPrefix("main picture copied") { counts.copyMain += 1 }
        else if plan.hasPrefix("composed:") { counts.compose += 1 }
        else { return false }
        return true
    }

    /// Counts a watched element's plan line.
    private func count(_ level: GstDebugLevel, _ object: UnsafeMutablePointer<GObject>?, _ message: OpaquePointer?) {
        guard level == GST_LEVEL_LOG, let object, let message,
              let text = gst_debug_message_get(message).map({ String(cString: $0) }),
              text.hasPrefix("frame at "), let start = text.range(of: " ns: ") else { return }
        let plan = text[start.upperBound...]
        lock.withLock {
            let key = UnsafeMutableRawPointer(object)
            if var counts = watched[key], Self.count(plan, in: &counts) { watched[key] = counts }
        }
    }
}

/// Counts the plans of the pipcompositor named `name` in `pipeline` until `planCounts`.
func watchPlans(_ pipeline: UnsafeMutablePointer<GstElement>, _ name: String) {
    let element = gst_bin_get_by_name(rc_bin(pipeline), name)!
    defer { gst_object_unref(element) }
    PlanLog.watch(element)
}

/// The plans the pipcompositor named `name` used since `watchPlans`.
func planCounts(_ pipeline: UnsafeMutablePointer<GstElement>, _ name: String) -> PlanCounts {
    let element = gst_bin_get_by_name(rc_bin(pipeline), name)!
    defer { gst_object_unref(element) }
    return PlanLog.counts(element)
}

/// Peak signal-to-noise ratio over all bytes of two equally sized frames, in dB.
func psnr(_ a: GrabbedFrame, _ b: GrabbedFrame) -> Double {
    precondition(a.format == b.format && a.size == b.size, "PSNR of different frames")
    var squared = 0.0, count = 0
    for (x, y) in zip(a.planes, b.planes) {
        for index in x.indices {
            let d = Double(x[index]) - Double(y[index])
            squared += d * d
        }
        count += x.count
    }
    guard squared > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (squared / Double(count)))
}
