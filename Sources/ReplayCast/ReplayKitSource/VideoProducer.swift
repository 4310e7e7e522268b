// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayKitModel

/// The screen: NV12 full range, a frame per 1/30 s slot while the screen changes, none while
/// it is static, GAP per slot while paused. Frames carry their number and capture time in a
/// barcode (broadcast time, or UTC with barcode-time=utc); with sync-marks, frames in a mark's flash are white below it.
/// With a trace, frames come at the trace's times, sizes and orientations instead.
final class VideoProducer: StreamProducer, @unchecked Sendable {
    static let framesPerSecond = 30
    private var renderer: ScreenRenderer
    private var size: (width: Int, height: Int)
    private var info = GstVideoInfo()
    /// Two frames allocated up front; bench/memory reports this pool apart (on a device the
    /// frames are ReplayKit's).
    private let buffers = OutputBufferPool(minimumBuffers: 2)
    private var lastSlot: UInt64?
    private var delivered: UInt32 = 0
    private var orientation: VideoOrientation = .up
    /// The trace's video samples, and the next one to replay.
    private let replayed: [BroadcastTrace.Sample]?
    private var replayIndex = 0
    private var lastEnd: UInt64 = 0

    /// One frame to deliver; a nil orientation is the broadcast state's.
    private struct Frame {
        var time: UInt64
        var duration: UInt64
        var width: Int
        var height: Int
        var orientation: VideoOrientation?
    }

    init(element: UnsafeMutablePointer<RcReplayKitSrc>, timeline: BroadcastTimeline,
         configuration: BroadcastConfiguration, groupID: guint) throws {
        renderer = try ScreenRenderer(width: configuration.width, height: configuration.height)
        size = (configuration.width, configuration.height)
        replayed = configuration.trace?.samples(of: .video)
        super.init(kind: RC_STREAM_VIDEO, element: element, timeline: timeline, configuration: configuration, groupID: groupID)
        gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, guint(configuration.width), guint(configuration.height))
    }

    override func initialCaps() -> UnsafeMutablePointer<GstCaps> {
        let text = "video/x-raw, format=NV12, width=\(size.width), height=\(size.height), "
            + "framerate=0/1, max-framerate=\(Self.framesPerSecond)/1, pixel-aspect-ratio=1/1, "
            + "colorimetry=1:3:5:1, interlace-mode=progressive"
        return gst_caps_from_string(text)
    }

    /// Frame slot k starts at ⌊k · 10⁹ / 30⌋ ns and lasts until the next slot.
    static func duration(ofFrameAt time: UInt64) -> UInt64 {
        slots.time(ofSlot: slots.firstSlot(atOrAfter: time) + 1) - time
    }

    private static let slots = FrameSlots(fps: framesPerSecond)

    private func nextFrame() -> Frame? {
        if let replayed {
            guard replayIndex < replayed.count, case .video(let width, let height, let orientation) = replayed[replayIndex].content
            else { return nil }
            let time = replayed[replayIndex].time
            return Frame(time: time, duration: replayed[replayIndex].duration ?? Self.duration(ofFrameAt: time),
                         width: width, height: height, orientation: orientation)
        }
        return configuration.nextFrameTime(after: lastSlot).map {
            Frame(time: $0, duration: Self.duration(ofFrameAt: $0), width: configuration.width, height: configuration.height)
        }
    }

    override func produce() -> Bool {
        let finish = timeline.finishTime
        guard let frame = nextFrame() else {
            // The screen never changes again: nothing until the broadcast finishes.
            if let finish { return endWhenDue(finish) }
            return waitForAction() != .stopped
        }
        let time = frame.time, duration = frame.duration
        if let finish, time >= finish {
            return endWhenDue(finish)
        }
        if frame.width != size.width || frame.height != size.height { return resize(frame) }
        let state = timeline.state(at: time)
        switch wait(until: time) {
        case .stopped: return false
        case .woken: return true
        case .due: break
        }
        lastSlot = time
        replayIndex += 1
        if replayed != nil, timeline.stopsVideo(from: lastEnd, through: time) {
            // The trace's pause: announced as one gap, and the next frame is a discontinuity.
            gap(time: lastEnd, duration: time - lastEnd)
        }
        lastEnd = time + duration
        guard state.deliversVideo else {
            gap(time: time, duration: duration)
            return true
        }
        if (frame.orientation ?? state.orientation) != orientation {
            orientation = frame.orientation ?? state.orientation
            DebugLog.replaykitsrc.info(element, "orientation \(orientation): tag \(orientation.orientation.rawValue) at \(time) ns")
            _ = gst_pad_push_event(pad, rc_image_orientation_tag_event(orientation.orientation.rawValue))
        }
        guard let buffer = render(time: time) else { return false }
        delivered &+= 1
        return push(buffer, time: time, duration: duration)
    }

    /// A trace's screen changes size: new caps, and a renderer for the new size.
    private func resize(_ frame: Frame) -> Bool {
        do {
            renderer = try ScreenRenderer(width: frame.width, height: frame.height)
        } catch {
            rc_element_error_stream_format(element, "replaykitsrc: \(error)", nil)
            return false
        }
        size = (frame.width, frame.height)
        gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, guint(size.width), guint(size.height))
        DebugLog.replaykitsrc.info(element, "screen size changes to \(size.width)x\(size.height) at \(frame.time) ns (trace)")
        pushCaps(initialCaps())
        return true
    }

    /// With barcode-time=utc, the wall clock now: a live frame is rendered as its slot comes
    /// on the pipeline clock, which is when a device would capture it.
    private func barcodeTimestamp(_ time: UInt64) -> UInt64 {
        configuration.utcBarcode ? UTCTime.now() : time
    }

    private func render(time: UInt64) -> UnsafeMutablePointer<GstBuffer>? {
        guard let buffer = outputBuffer(from: buffers, size: Int(info.size), what: "a video") else { return nil }
        let rendered: Void? = buffer.withWritableBytes { data in
            let yPlane = data + Int(info.offset.0), uvPlane = data + Int(info.offset.1)
            let yStride = Int(info.stride.0), uvStride = Int(info.stride.1)
            renderer.render(frameNumber: delivered, time: time, barcodeTimestamp: barcodeTimestamp(time),
                            yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride)
            if configuration.syncMarks, SyncMarks.flash(at: time) != nil {
                SyncMarks.drawFlash(yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride,
                                    width: size.width, height: size.height,
                                    keepRows: FrameBarcode.height(forWidth: size.width))
            }
        }
        guard rendered != nil else {
            gst_buffer_unref(buffer)
            return nil
        }
        return buffer
    }
}
