// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport

extension DebugLog {
    static let pipcompositor = DebugLog("pipcompositor")
}

/// Streaming state of one pipcompositor. The base class calls `createOutputBuffer`, then maps
/// the PiPs' buffers, then `aggregateFrames`, all on its aggregator thread (start and stop run
/// while that thread is halted), so this state needs no lock of its own. Properties live in
/// the C instance and pads; they are copied once per output frame under the object locks and
/// drawing works on the copy, with no lock of ours held.
///
/// How a frame is made is `FramePlan`'s decision: when the output is the main picture as it
/// is, its buffer's memory becomes the output (no copy) and only the PiPs are drawn into it,
/// with what they cover saved (`RegionStore`) so that the same main picture can be shown
/// again; otherwise the frame is composed: background, the main picture converted, rotated or
/// scaled as needed, the PiPs.
final class PipCompositor: OwnedSwiftState {
    typealias Instance = RcPipCompositor
    /// The frame state (plans, held buffers, scratch) belongs to the aggregator's thread, and
    /// to start/stop while it is halted; checked in debug builds.
    let owner = StreamingOwner("pipcompositor")

    // The copy of pads and settings for the frame being made.
    private(set) var pads: UnsafeMutablePointer<PadSnapshot>
    private var capacity = 8
    private(set) var count = 0
    // Handed to C by address several times a frame by the aggregator thread, their only user.
    @exclusivity(unchecked) private var settings = RcPipCompositorSettings()
    @exclusivity(unchecked) private var output = GstVideoInfo()
    private var outputFormat: VideoFormat?
    /// Per pad: where its picture goes this frame and whether it is drawn.
    private var targets: UnsafeMutablePointer<PixelRect>
    private var drawn: UnsafeMutablePointer<Bool>

    // Main picture for the frame being made.
    private var plan = FramePlan.compose
    private var hasMain = false
    private var mainSource: UnsafeMutablePointer<GstBuffer>?
    private var mainAlpha = 1.0

    /// The main buffer whose memory became an output (now empty), and the last output
    /// holding that memory with the PiPs drawn in; `saved` holds what lies under them.
    private var takenMain: UnsafeMutablePointer<GstBuffer>?
    /// Memoryless buffers (rc_wrapper_pool) that lend a main buffer's memory to an output;
    /// nil if the pool could not be set up (every frame is then copied). Start to stop.
    private var wrappers: UnsafeMutablePointer<GstBufferPool>?
    private var heldOutput: UnsafeMutablePointer<GstBuffer>?
    private let saved = RegionStore()

    private var background: (key: BackgroundKey, colour: PlaneColor?)?

    /// An output frame was made since start.
    var madeFrame = false
    /// The output's frame times were settled against the main input's (`MainTiming`).
    var mainTimed = false
    /// Live, the output's wait for the main input's first buffer (`MainTiming.holds`).
    var hold = MainTiming.Hold.notYet
    private var warnedShortMain = false
    private var warnedOversized = false

    init() {
        pads = .allocate(capacity: capacity)
        targets = .allocate(capacity: capacity)
        drawn = .allocate(capacity: capacity)
        drawn.initialize(repeating: false, count: capacity)
        targets.initialize(repeating: PixelRect(x: 0, y: 0, width: 0, height: 0), count: capacity)
    }

    deinit {
        releaseSnapshot()
        releaseHeld()
        pads.deallocate()
        targets.deallocate()
        drawn.deallocate()
    }

    // MARK: - Per frame

    func createOutputBuffer(_ element: UnsafeMutablePointer<RcPipCompositor>,
                            _ outbuf: UnsafeMutablePointer<UnsafeMutablePointer<GstBuffer>?>) -> GstFlowReturn {
        takeSnapshot(element)
        if mainHasEnded(element) { return GST_FLOW_EOS }
        guard let out = VideoFormat(output) else { return GST_FLOW_NOT_NEGOTIATED }
        if out != outputFormat {
            DebugLog.pipcompositor.info(element, "output \(out.format) \(out.size.width)x\(out.size.height), "
                                        + "colours \(out.colorSpace.map { "\($0.matrix) \($0.range) range" } ?? "as negotiated")")
        }
        outputFormat = out
        startLayers()
        // A main buffer whose memory an earlier frame took is drawn from the held output, not
        // read: only another buffer can be short.
        if count > 0, let buffer = pads[0].buffer, buffer != takenMain, !MainBuffer.fits(buffer, &pads[0].info) {
            skipShortMain(element, buffer)
            pads[0].buffer = nil
        }
        let mainBuffer = count > 0 ? pads[0].buffer : nil
        if mainBuffer != takenMain { releaseHeld() }
        let fillsOutput = prepareMain(element, output: out)
        for index in 1..<Swift.max(count, 1) { preparePiP(element, index, output: out) }

        let alreadyTaken = hasMain && mainBuffer == takenMain
        let held: FramePlan.Held = heldOutput.map { rc_buffer_refcount($0) == 1 ? .onlyOurs : .shared } ?? .none
        let lendable = fillsOutput && !alreadyTaken && mainBuffer.map { MainBuffer.canLend($0, output: &output, wrappers: wrappers) } == true
        let choice = FramePlan.choose(FramePlan.Situation(showsMain: hasMain, fillsOutput: fillsOutput, alreadyTaken: alreadyTaken,
                                                          held: held, lendable: lendable))
        hasMain = choice.showsMain
        plan = choice.plan
        if let given = giveOutput(mainBuffer, alreadyTaken: alreadyTaken) {
            outbuf.pointee = given
            return GST_FLOW_OK
        }
        return rc_pipcompositor_allocate_output(element, outbuf)
    }

    /// Every input's layer at the start of an output frame: not drawn yet, and a rotation
    /// that waited for its pad's next buffer taken now. The base class maps no main buffer
    /// (`skip_prepare`): the element reads it, or lends its memory, itself.
    private func startLayers() {
        for index in 0..<count {
            let pad = pads[index].pad!
            pad.pointee.skip_prepare = index == 0 ? 1 : 0
            let layer = PictureLayer.of(pad)
            if layer.isNewBuffer(pads[index].buffer), let pending = layer.pendingOrientation {
                layer.orientation = pending
                layer.pendingOrientation = nil
            }
            drawn[index] = false
        }
    }

    /// Carries out `plan` as far as the output buffer goes: the buffer itself when the plan
    /// needs none allocated (the held output again, or the main's memory lent), else nil
    /// with `mainSource` set for `aggregateFrames`. A lend that fails falls back to a copy.
    private func giveOutput(_ mainBuffer: UnsafeMutablePointer<GstBuffer>?, alreadyTaken: Bool) -> UnsafeMutablePointer<GstBuffer>? {
        switch plan {
        case .reuseHeld:
            defer { heldOutput = nil }
            return heldOutput
        case .taken:
            if let mainBuffer, let memory = MainBuffer.lend(mainBuffer, output: &output, wrappers: wrappers) {
                takenMain = gst_buffer_ref(mainBuffer)
                return memory
            }
            plan = .copyMain
            mainSource = mainBuffer
        case .copyMain:
            mainSource = mainBuffer
        case .copyHeld:
            break
        case .compose:
            if hasMain, alreadyTaken {
                // The main picture's pixels live in the last output, under PiPs.
                makeHeldPristine()
                mainSource = heldOutput
            } else {
                mainSource = mainBuffer
            }
            hasMain = hasMain && mainSource != nil
        }
        return nil
    }

    /// end-with-main: the main picture is the broadcast, so when it has ended so has the
    /// output, however long a camera goes on; compositor waits for every input's end. A main
    /// pad with repeat-after-eos asked for its last frame until every input ends.
    private func mainHasEnded(_ element: UnsafeMutablePointer<RcPipCompositor>) -> Bool {
        guard settings.end_with_main != 0, count > 0, let main = pads[0].pad,
              gst_aggregator_pad_is_eos(rc_aggregator_pad(main)) != 0, !ObjectProperties.bool(main, "repeat-after-eos")
        else { return false }
        guard let last = pads[0].buffer else {
            DebugLog.pipcompositor.info(element, "the main picture has ended: end of stream")
            return true
        }
        guard endsInFirstHalf(element, main, last) else { return false }
        DebugLog.pipcompositor.info(element, "the main picture's last frame ends in the first half of this output "
                                    + "frame: end of stream, not a repeat of it")
        return true
    }

    /// Sets up the main picture (the lowest zorder pad) for this frame: `hasMain`, its
    /// target, alpha and layer. True when it fills the output unchanged (same format, size
    /// and colours, upright, opaque, the whole frame).
    private func prepareMain(_ element: UnsafeMutablePointer<RcPipCompositor>, output out: VideoFormat) -> Bool {
        hasMain = false
        guard count > 0, let source = VideoFormat(pads[0].info) else { return false }
        let pad = pads[0].pad!
        let padSettings = PadSettings(pads[0].settings)
        let orientation = PictureLayer.of(pad).orientation
        let rect = PipGeometry.main(padSettings, source: orientation.outputSize(for: source.size), output: out.size, format: out.format)
        mainAlpha = padSettings.alpha
        targets[0] = rect
        guard pads[0].buffer != nil, !rect.isEmpty, fits(element, rect, output: out.size, pad: 0) else { return false }
        hasMain = withUnsafePointer(to: &pads[0].info) { sourceInfo in
            PictureLayer.of(pad).configure(
                PictureLayer.Configuration(source: source, output: out, orientation: orientation, size: rect.size, style: PipStyle()),
                sourceInfo: sourceInfo, outputInfo: &output)
        }
        return hasMain && source.sameColours(as: out) && source.size == out.size && orientation == .rotate0
            && rect == PixelRect(x: 0, y: 0, width: out.size.width, height: out.size.height) && padSettings.alpha >= 1
    }

    func aggregateFrames(_ element: UnsafeMutablePointer<RcPipCompositor>, _ outbuf: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        defer {
            mainSource = nil
            releaseSnapshot()
        }
        let plan = self.plan
        madeFrame = true
        DebugLog.pipcompositor.log(element, "frame at \(outbuf.pointee.pts) ns: \(plan), main picture "
                                   + (hasMain ? "\(targets[0].width)x\(targets[0].height) at (\(targets[0].x), \(targets[0].y))" : "none")
                                   + ", \(Swift.max(count - 1, 0)) PiP pads")
        let done = withMappedFrame(outbuf, info: &output, write: true) { _, frame -> Bool in
            switch plan {
            case .taken:
                savePiPAreas(of: frame)
            case .reuseHeld:
                saved.restore(into: frame)
                savePiPAreas(of: frame)
            case .copyHeld:
                guard let held = heldOutput,
                      withMappedFrame(held, info: &output, write: false, { _, source in frame.copyPixels(from: source) }) != nil
                else { return false }
                saved.restore(into: frame)
                savePiPAreas(of: frame)
            case .copyMain:
                guard let mainSource,
                      withMappedFrame(mainSource, info: &pads[0].info, write: false, { _, source in frame.copyPixels(from: source) }) != nil
                else { return false }
            case .compose:
                drawBackground(into: frame)
                if hasMain, let mainSource {
                    let pad = pads[0].pad!
                    let origin = targets[0].origin, alpha = mainAlpha
                    _ = withMappedFrame(mainSource, info: &pads[0].info, write: false) { source, view in
                        PictureLayer.of(pad).draw(source, view: view, into: frame, at: origin, alpha: alpha)
                    }
                }
            }
            drawPiPs(into: frame)
            return true
        }
        guard done == true else {
            rc_element_error_stream_format(element, "pipcompositor could not map a video frame", "plan \(plan)")
            return GST_FLOW_ERROR
        }
        if plan.holdsMainMemory {
            if let held = heldOutput { gst_buffer_unref(held) }
            heldOutput = gst_buffer_ref(outbuf)
        }
        return GST_FLOW_OK
    }

    // MARK: - PiPs

    private func preparePiP(_ element: UnsafeMutablePointer<RcPipCompositor>, _ index: Int, output out: VideoFormat) {
        guard index < count, pads[index].buffer != nil, let source = VideoFormat(pads[index].info) else { return }
        let padSettings = PadSettings(pads[index].settings)
        guard padSettings.alpha > 0 else { return }
        let rect = PipGeometry.pip(padSettings, source: source.size, output: out.size, format: out.format)
        guard !rect.isEmpty, fits(element, rect, output: out.size, pad: index) else { return }
        let configured = withUnsafePointer(to: &pads[index].info) { sourceInfo in
            PictureLayer.of(pads[index].pad!).configure(
                PictureLayer.Configuration(source: source, output: out, orientation: .rotate0, size: rect.size,
                                           style: padSettings.style),
                sourceInfo: sourceInfo, outputInfo: &output)
        }
        targets[index] = rect
        drawn[index] = configured
    }

    /// Saves what the PiPs of this frame will cover (the frame holds the pristine main picture).
    private func savePiPAreas(of frame: VideoFrame) {
        saved.removeAll()
        for index in 1..<Swift.max(count, 1) where drawn[index] {
            saved.save(targets[index], of: frame)
        }
    }

    private func drawPiPs(into frame: VideoFrame) {
        for index in 1..<Swift.max(count, 1) where drawn[index] {
            let pad = pads[index].pad!
            guard let prepared = gst_video_aggregator_pad_get_prepared_frame(UnsafeMutablePointer(OpaquePointer(pad))),
                  prepared.pointee.buffer != nil, let format = VideoFormat(prepared.pointee.info)?.format else { continue }
            let view = VideoFrame(mapped: prepared.pointee, format: format)
            PictureLayer.of(pad).draw(prepared, view: view, into: frame, at: targets[index].origin,
                                      alpha: pads[index].settings.alpha)
        }
    }

    // MARK: - Background

    private struct BackgroundKey: Equatable {
        var kind: RcPipBackground
        var argb: guint
        var format: PixelFormat
        var space: ColorSpace
    }

    /// Fills what the main picture does not cover opaquely: the bars of a letterbox, or all
    /// of the frame.
    private func drawBackground(into frame: VideoFrame) {
        guard let out = outputFormat else { return }
        let full = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        var areas = (full, full, full, full)
        var areaCount = 1
        if hasMain && mainAlpha >= 1 && out.format.isYUV {
            let rect = targets[0].intersection(full)
            let even = rect.x % 2 == 0 && rect.y % 2 == 0 && rect.width % 2 == 0 && rect.height % 2 == 0
            if rect == full { return }
            if even && !rect.isEmpty {
                let bars = full.bars(around: rect)
                areas = (bars.top, bars.bottom, bars.left, bars.right)
                areaCount = 4
            }
        }
        let key = BackgroundKey(kind: settings.background, argb: settings.background_color, format: out.format,
                                space: out.drawingSpace)
        if background?.key != key { background = (key, Self.backgroundColour(key)) }
        let colour = background?.colour
        for index in 0..<areaCount {
            let area = index == 0 ? areas.0 : index == 1 ? areas.1 : index == 2 ? areas.2 : areas.3
            guard !area.isEmpty else { continue }
            if let colour { frame.fill(area, with: colour) } else { frame.fillChecker(area) }
        }
    }

    /// nil for the checker pattern.
    private static func backgroundColour(_ key: BackgroundKey) -> PlaneColor? {
        switch key.kind {
        case RC_PIP_BACKGROUND_CHECKER:
            return nil
        case RC_PIP_BACKGROUND_WHITE:
            return PlaneColor(.white, format: key.format, space: key.space)
        case RC_PIP_BACKGROUND_TRANSPARENT:
            // Transparent black in RGBA/BGRA; 4:2:0 has no alpha, so black.
            return PlaneColor(.black, alpha: 0, format: key.format, space: key.space)
        case RC_PIP_BACKGROUND_COLOR:
            return PlaneColor(RGBColor(hex: UInt32(key.argb) & 0xFF_FFFF), alpha: UInt8(truncatingIfNeeded: key.argb >> 24),
                              format: key.format, space: key.space)
        default:
            return PlaneColor(.black, format: key.format, space: key.space)
        }
    }

    // MARK: - Held output

    /// Puts the saved areas back into the held output, so it is the main picture alone: in
    /// place when only we reference it, else in a private copy (a geometry change while the
    /// main picture repeats; rare).
    private func makeHeldPristine() {
        guard let held = heldOutput, !saved.isEmpty else { return }
        var target = held
        if rc_buffer_refcount(held) != 1 {
            guard let copy = gst_buffer_copy_deep(held) else { return }
            gst_buffer_unref(held)
            target = copy
            heldOutput = copy
        }
        _ = withMappedFrame(target, info: &pads[0].info, write: true) { _, frame in saved.restore(into: frame) }
        saved.removeAll()
    }

    private func releaseHeld() {
        if let heldOutput { gst_buffer_unref(heldOutput) }
        if let takenMain { gst_buffer_unref(takenMain) }
        heldOutput = nil
        takenMain = nil
        saved.removeAll()
    }

    // MARK: - Snapshot

    func takeSnapshot(_ element: UnsafeMutablePointer<RcPipCompositor>) {
        releaseSnapshot()
        var total = PadSnapshot.take(element, settings: &settings, output: &output, into: pads, capacity: capacity)
        if total > capacity {
            PadSnapshot.release(pads, count: capacity)
            grow(to: total)
            total = PadSnapshot.take(element, settings: &settings, output: &output, into: pads, capacity: capacity)
        }
        count = Swift.min(total, capacity)
    }

    func releaseSnapshot() {
        PadSnapshot.release(pads, count: count)
        count = 0
    }

    /// More pads than ever before: the only allocation on the streaming path, once per size.
    private func grow(to needed: Int) {
        let size = Swift.max(needed, capacity * 2)
        pads.deallocate()
        targets.deallocate()
        drawn.deallocate()
        pads = .allocate(capacity: size)
        targets = .allocate(capacity: size)
        targets.initialize(repeating: PixelRect(x: 0, y: 0, width: 0, height: 0), count: size)
        drawn = .allocate(capacity: size)
        drawn.initialize(repeating: false, count: size)
        capacity = size
    }

    /// True when the ended main input's last buffer ends at or before the middle of the
    /// output frame about to be made. GstVideoAggregator keeps a pad's buffer for every
    /// output frame it overlaps, so a main input whose frames start just after the output's
    /// (replaykitsrc's start 0.2 ms after it) would show its last frame a second time for the
    /// sliver it reaches into the next one. False when the buffer's end or the output's frame
    /// is not known: the base class's rule stands.
    private func endsInFirstHalf(_ element: UnsafeMutablePointer<RcPipCompositor>,
                                 _ main: UnsafeMutablePointer<RcPipCompositorPad>,
                                 _ buffer: UnsafeMutablePointer<GstBuffer>) -> Bool {
        let pts = buffer.pointee.pts, duration = buffer.pointee.duration
        let rate = (n: element.pointee.parent.info.fps_n, d: element.pointee.parent.info.fps_d)
        guard pts != GstClockTime.max, duration != GstClockTime.max, rate.n > 0, rate.d > 0 else { return false }
        var segment = AggregatorOutput.currentSegment(element)
        guard segment.rate > 0 else { return false }
        let start = AggregatorOutput.nextFrameStart(segment)
        let half = GstClockTime(Timebase.scale(Timebase.nanosecondsPerSecond / 2, UInt64(rate.d), UInt64(rate.n)))
        let middle = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, start &+ half)
        var padSegment = withObjectLock(main) { rc_aggregator_pad(main)!.pointee.segment }
        let end = gst_segment_to_running_time(&padSegment, GST_FORMAT_TIME, pts &+ duration)
        return middle != GstClockTime.max && end != GstClockTime.max && end <= middle
    }

    /// A main buffer smaller than its caps say cannot be drawn: that frame has no main
    /// picture (compositor likewise skips a frame it cannot map), and a warning names the
    /// sizes, once per run.
    private func skipShortMain(_ element: UnsafeMutablePointer<RcPipCompositor>, _ buffer: UnsafeMutablePointer<GstBuffer>) {
        let text = "pipcompositor: a main picture buffer of \(gst_buffer_get_size(buffer)) bytes is smaller than its caps' "
            + "\(pads[0].info.size) bytes: that frame is drawn without it"
        warn(element, text, once: &warnedShortMain)
    }

    /// A picture sized beyond `PipGeometry.maximumScale` times the output is not drawn that
    /// frame (the rest of the frame is), with a warning naming the pad, once per run.
    private func fits(_ element: UnsafeMutablePointer<RcPipCompositor>, _ rect: PixelRect, output: PixelSize, pad index: Int) -> Bool {
        guard !PipGeometry.drawable(rect, output: output) else { return true }
        let name = String(cString: rc_object_name(pads[index].pad!))
        let text = "pipcompositor: \(name)'s picture would be drawn at \(rect.width)x\(rect.height), more than "
            + "\(PipGeometry.maximumScale) times the \(output.width)x\(output.height) output: it is not drawn"
        warn(element, text, once: &warnedOversized)
        return false
    }

    /// Logs `text` each time; posts it as an element warning the first time in a run.
    private func warn(_ element: UnsafeMutablePointer<RcPipCompositor>, _ text: String, once warned: inout Bool) {
        DebugLog.pipcompositor.debug(element, text)
        guard !warned else { return }
        warned = true
        rc_element_warning_stream_format(element, text, nil)
    }

    func start() {
        reset()
        wrappers = rc_wrapper_pool_new()
    }

    /// Wrappers still downstream are freed as they come back.
    func stop() {
        reset()
        if let wrappers {
            gst_buffer_pool_set_active(wrappers, 0)
            gst_object_unref(wrappers)
        }
        wrappers = nil
    }

    private func reset() {
        madeFrame = false
        mainTimed = false
        hold = .notYet
        warnedShortMain = false
        warnedOversized = false
        releaseSnapshot()
        releaseHeld()
        plan = .compose
        mainSource = nil
    }

    // MARK: - Orientation

    func tag(_ element: UnsafeMutablePointer<RcPipCompositor>, _ pad: UnsafeMutablePointer<RcPipCompositorPad>,
             _ event: UnsafeMutablePointer<GstEvent>) {
        var list: UnsafeMutablePointer<GstTagList>?
        gst_event_parse_tag(event, &list)
        var text: UnsafeMutablePointer<gchar>?
        guard let list, gst_tag_list_get_string(list, "image-orientation", &text) != 0, let text else { return }
        defer { g_free(text) }
        guard let orientation = Orientation(tag: String(cString: text)) else { return }
        PictureLayer.of(pad).pendingOrientation = orientation
        DebugLog.pipcompositor.debug(element, "\(String(cString: rc_object_name(pad))): image-orientation \(orientation) from its next buffer")
        // The output follows the upright main picture unless downstream fixes its size.
        gst_pad_mark_reconfigure(rc_aggregator_src_pad(element))
    }
}

extension PictureLayer: SwiftState {
    typealias Instance = RcPipCompositorPad
}

// MARK: - Exports

extension RcPipCompositor: SwiftStateSlot {}
extension RcPipCompositorPad: SwiftStateSlot {}

@_cdecl("rc_pipcompositor_state_new")
func pipcompositorStateNew() -> UnsafeMutableRawPointer { PipCompositor().retained() }

@_cdecl("rc_pipcompositor_pad_state_new")
func pipcompositorPadStateNew() -> UnsafeMutableRawPointer { PictureLayer().retained() }

@_cdecl("rc_pipcompositor_start")
func pipcompositorStart(_ element: UnsafeMutablePointer<RcPipCompositor>) { PipCompositor.owning(element) { $0.start() } }

@_cdecl("rc_pipcompositor_stop")
func pipcompositorStop(_ element: UnsafeMutablePointer<RcPipCompositor>) { PipCompositor.owning(element) { $0.stop() } }

@_cdecl("rc_pipcompositor_tag")
func pipcompositorTag(_ element: UnsafeMutablePointer<RcPipCompositor>, _ pad: UnsafeMutablePointer<RcPipCompositorPad>,
                      _ event: UnsafeMutablePointer<GstEvent>) {
    PipCompositor.of(element).tag(element, pad, event)
}

@_cdecl("rc_pipcompositor_create_output_buffer")
func pipcompositorCreateOutputBuffer(_ element: UnsafeMutablePointer<RcPipCompositor>,
                                     _ outbuf: UnsafeMutablePointer<UnsafeMutablePointer<GstBuffer>?>) -> GstFlowReturn {
    PipCompositor.of(element).createOutputBuffer(element, outbuf)
}

@_cdecl("rc_pipcompositor_aggregate_frames")
func pipcompositorAggregateFrames(_ element: UnsafeMutablePointer<RcPipCompositor>,
                                  _ outbuf: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
    PipCompositor.of(element).aggregateFrames(element, outbuf)
}

@_cdecl("rc_pipcompositor_aggregate")
func pipcompositorAggregate(_ element: UnsafeMutablePointer<RcPipCompositor>, _ timeout: gboolean) -> GstFlowReturn {
    PipCompositor.owning(element) { $0.aggregate(element, timeout: timeout != 0) }
}
