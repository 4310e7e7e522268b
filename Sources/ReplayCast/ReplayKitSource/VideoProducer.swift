// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import ReplayKitModel

/// The screen: NV12 full range, a frame per 1/30 s slot while the screen changes, none while
/// it is static, GAP per slot while paused. Frames carry their number and capture time in a
/// barcode (broadcast time, or UTC with barcode-time=utc); with sync-marks, frames in a mark's flash are white below it.
/// With a trace, frames come at the trace's times, sizes and orientations instead. With
/// screen-location, the file's pictures take the emulated screen's place under the barcode:
/// a frame in the first slot at or after a new picture (or a flash's edge), none otherwise.
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
    /// screen-location's pictures, the one on screen, and what the last frame showed: the
    /// picture's serial (0: none yet) and whether a flash covered it.
    private let screen: ScreenFrames?
    private var onScreen: ScreenFrames.Frame?
    private var shown: (serial: UInt64, flash: Bool)?

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
        screen = configuration.screen?.frames
        super.init(kind: RC_STREAM_VIDEO, element: element, timeline: timeline, configuration: configuration, groupID: groupID)
        gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, guint(configuration.width), guint(configuration.height))
    }

    deinit {
        if let onScreen { gst_buffer_unref(onScreen.buffer) }
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

    /// The start of the first slot at or after `time`.
    private static func slot(atOrAfter time: UInt64) -> UInt64 { slots.time(ofSlot: slots.firstSlot(atOrAfter: time)) }

    /// The slot a screen-location picture from `time` is first shown in.
    private static func slot(showing time: UInt64) -> UInt64 {
        slot(atOrAfter: time > ScreenFrames.timeTolerance ? time - ScreenFrames.timeTolerance : 0)
    }

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
        if let screen, replayed == nil { return produceFromFile(screen) }
        let frame = nextFrame()
        if let frame, frame.width != size.width || frame.height != size.height, timeline.finishTime.map({ frame.time < $0 }) ?? true {
            return resize(frame)
        }
        let state: BroadcastState
        switch due(at: frame?.time) {
        case .done(let continues): return continues
        case .due(let then): state = then
        }
        guard let frame else { return true }
        let time = frame.time, duration = frame.duration
        lastSlot = time
        replayIndex += 1
        if replayed != nil, timeline.stopsVideo(from: lastEnd, through: time) {
            // The trace's pause: announced as one gap, and the next frame is a discontinuity.
            gap(time: lastEnd, duration: time - lastEnd)
        }
        lastEnd = time + duration
        if let screen { show(screen, at: time) }
        return deliver(at: time, duration: duration, delivers: state.deliversVideo, orientation: frame.orientation ?? state.orientation)
    }

    private func deliver(at time: UInt64, duration: UInt64, delivers: Bool, orientation wanted: VideoOrientation) -> Bool {
        guard delivers else {
            gap(time: time, duration: duration)
            return true
        }
        if wanted != orientation {
            orientation = wanted
            DebugLog.replaykitsrc.info(element, "orientation \(orientation): tag \(orientation.orientation.rawValue) at \(time) ns")
            _ = gst_pad_push_event(pad, rc_image_orientation_tag_event(orientation.orientation.rawValue))
        }
        guard let buffer = render(time: time) else { return false }
        delivered &+= 1
        return push(buffer, time: time, duration: duration)
    }

    /// screen-location without a trace: the next slot with something new on screen (a
    /// picture, a flash's edge). Live, a slot is never more than a slot in the past: a
    /// picture decoded after its slot is shown in the next one to come, and counted late.
    private func produceFromFile(_ screen: ScreenFrames) -> Bool {
        let live = configuration.live
        var earliest = lastSlot.map { Self.slots.time(ofSlot: Self.slots.firstSlot(atOrAfter: $0) + 1) } ?? 0
        if live {
            // A slot less than a slot ago still counts: a device's capture is that late too.
            let now = broadcastTimeNow(), slotLength = Timebase.nanosecondsPerSecond / UInt64(Self.framesPerSecond)
            earliest = max(earliest, Self.slot(atOrAfter: now > slotLength ? now - slotLength : 0))
        }
        var next: UInt64?
        switch screen.next() {
        case .frame(let time):
            next = max(Self.slot(showing: time), earliest)
        case .waiting:
            guard live else {
                screen.waitForFrame(microseconds: 20_000)
                return true
            }
            // The decoder is behind: look again in the next slot.
            next = earliest
        case .ended:
            next = nil
        }
        if configuration.syncMarks {
            let edge = max(SyncMarks.nextEdge(after: lastSlot ?? 0), earliest)
            next = next.map { min($0, edge) } ?? edge
        }
        let state: BroadcastState
        switch due(at: next) {
        case .done(let continues): return continues
        case .due(let then): state = then
        }
        guard let time = next else { return true }
        lastSlot = time
        show(screen, at: time)
        let showing = (serial: onScreen?.serial ?? 0, flash: configuration.syncMarks && SyncMarks.flash(at: time) != nil)
        if let shown, shown == showing { return true }
        shown = showing
        return deliver(at: time, duration: Self.duration(ofFrameAt: time), delivers: state.deliversVideo,
                       orientation: screen.orientation ?? state.orientation)
    }

    private enum Due {
        /// The frame's time has come; the broadcast's state then.
        case due(BroadcastState)
        /// What `produce` returns instead: the stream ended, stopped, or must decide again.
        case done(Bool)
    }

    /// Waits for a frame at `time`, or, with none to come, for the broadcast's finish.
    private func due(at time: UInt64?) -> Due {
        let finish = timeline.finishTime
        guard let time else {
            // The screen never changes again: nothing until the broadcast finishes.
            if let finish { return .done(endWhenDue(finish)) }
            return .done(waitForAction() != .stopped)
        }
        if let finish, time >= finish { return .done(endWhenDue(finish)) }
        let state = timeline.state(at: time)
        switch wait(until: time) {
        case .stopped: return .done(false)
        case .woken: return .done(true)
        case .due: return .due(state)
        }
    }

    /// Puts the file's picture for `time` on screen; non-live waits for it to be decoded.
    private func show(_ screen: ScreenFrames, at time: UInt64) {
        guard let frame = screen.take(through: time, complete: !configuration.live) else { return }
        let slot = Self.slot(showing: frame.time)
        if slot < time, replayed == nil { screen.noteLate(by: time - slot) }
        if let onScreen { gst_buffer_unref(onScreen.buffer) }
        onScreen = frame
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
            if screen != nil {
                drawPicture(yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride)
                renderer.renderBarcode(frameNumber: delivered, timestamp: barcodeTimestamp(time),
                                       yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride)
            } else {
                renderer.render(frameNumber: delivered, time: time, barcodeTimestamp: barcodeTimestamp(time),
                                yPlane: yPlane, yStride: yStride, uvPlane: uvPlane, uvStride: uvStride)
            }
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

    private static let black = PlaneColor(RGBColor(red: 0, green: 0, blue: 0), format: .nv12, space: .screenCapture)

    /// The picture on screen, centred, with black bars where its aspect leaves room; all
    /// black before the file's first picture.
    private func drawPicture(yPlane: UnsafeMutablePointer<UInt8>, yStride: Int, uvPlane: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        let screen = Self.nv12(width: size.width, height: size.height, yPlane, yStride, uvPlane, uvStride)
        let drawn = onScreen.flatMap { frame -> PixelRect? in
            var info = frame.info
            guard Int(info.width) <= size.width, Int(info.height) <= size.height else { return nil }
            return withMappedFrame(frame.buffer, info: &info, write: false) { _, picture in
                let at = PixelPoint(x: (size.width - picture.width) / 4 * 2, y: (size.height - picture.height) / 4 * 2)
                screen.draw(picture, at: at)
                return PixelRect(origin: at, size: picture.size)
            }
        }
        guard let drawn else {
            screen.fill(PixelRect(x: 0, y: 0, width: size.width, height: size.height), with: Self.black)
            return
        }
        let bars = PixelRect(x: 0, y: 0, width: size.width, height: size.height).bars(around: drawn)
        Self.bar(bars.top, on: screen)
        Self.bar(bars.bottom, on: screen)
        Self.bar(bars.left, on: screen)
        Self.bar(bars.right, on: screen)
    }

    private static func bar(_ rect: PixelRect, on screen: VideoFrame) {
        if !rect.isEmpty { screen.fill(rect, with: black) }
    }

    private static func nv12(width: Int, height: Int, _ y: UnsafeMutablePointer<UInt8>, _ yStride: Int,
                             _ uv: UnsafeMutablePointer<UInt8>, _ uvStride: Int) -> VideoFrame {
        VideoFrame(format: .nv12, width: width, height: height,
                   PixelPlane(base: y, stride: yStride, width: width, height: height),
                   PixelPlane(base: uv, stride: uvStride, width: (width + 1) / 2, height: (height + 1) / 2, bytesPerPixel: 2))
    }
}
