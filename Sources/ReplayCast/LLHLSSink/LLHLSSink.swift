// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import HLSPackaging
import MediaKernels
import ReplayCastSupport

extension DebugLog {
    static let llhlssink = DebugLog("llhlssink")
}

/// llhlssink's Swift side. Each request pad is a rendition that its streaming thread writes
/// (parts, segments, its media playlist); what they share, the ladder, is read and changed
/// under its lock, and no lock is held while a file is written or a message posted.
final class LLHLSSink: SwiftState {
    typealias Instance = RcLLHLSSink
    static let multivariantName = "index.m3u8"

    /// Between start and stop: the packaging settings and the folder.
    private let running = Locked<(settings: TrackPackager.Settings, folder: OutputFolder)?>(nil)
    private let ladder = Locked(Ladder())
    /// Every requested pad's rendition, in request order; each pad holds its own reference too.
    private let renditions = Locked<[Rendition]>([])

    func start(_ element: UnsafeMutablePointer<RcLLHLSSink>) -> Bool {
        let settings = Self.properties.withSettings(of: element) { LLHLSSettings($0) }
        if let problem = settings.packaging.problem {
            rc_element_error_resource(element, GST_RESOURCE_ERROR_SETTINGS, "llhlssink cannot make a valid playlist: \(problem)",
                                      "part-duration, target-duration and playlist-length")
            return false
        }
        let folder: OutputFolder
        do {
            folder = try OutputFolder(making: settings.location)
        } catch {
            rc_element_error_resource(element, GST_RESOURCE_ERROR_OPEN_WRITE, "llhlssink cannot write to the folder \(error)",
                                      "location=\(settings.location)")
            return false
        }
        let all = renditions.withLock { $0 }
        guard !all.isEmpty else {
            rc_element_error_resource(element, GST_RESOURCE_ERROR_SETTINGS, "llhlssink has no video or audio pad",
                                      "link H.264 renditions to video_%u pads and/or an AAC stream to its audio pad")
            return false
        }
        for rendition in all { rendition.owner.run { rendition.reset() } }
        ladder.withLock { ladder in
            ladder = Ladder()
            for rendition in all { ladder.entries[rendition.name] = .init(isVideo: rendition.isVideo) }
        }
        running.withLock { $0 = (settings.packaging, folder) }
        DebugLog.llhlssink.info(element, "writing \(all.map(\.name).joined(separator: ", ")) to \(folder.path): parts of at most "
                                + "\(settings.packaging.partTarget) s, segments of \(settings.packaging.segmentTarget) s")
        return true
    }

    func stop(_ element: UnsafeMutablePointer<RcLLHLSSink>) {
        running.withLock { $0 = nil }
    }

    /// PAUSED → PLAYING (true) and back: an EOS that is due is posted on entering PLAYING.
    func setPlaying(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ playing: Bool) {
        let (post, seqnum) = ladder.withLock { ladder in
            ladder.playing = playing
            return (playing && ladder.finished, ladder.eosSeqnum)
        }
        if post { Self.postEndOfStream(element, seqnum: seqnum) }
    }

    /// A pad's rendition, or nil when none may be added now: the multivariant playlist lists
    /// the renditions the element starts with.
    func newRendition(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ pad: UnsafeMutablePointer<GstPad>, video: Bool) -> Rendition? {
        let streaming = withObjectLock(element) {
            rc_element(element).pointee.current_state.rawValue > GST_STATE_READY.rawValue
                || rc_element(element).pointee.pending_state.rawValue > GST_STATE_READY.rawValue
        }
        let name = String(cString: rc_object_name(pad))
        let why: String? = streaming ? "the multivariant playlist lists the renditions the element starts with"
            : (!video && renditions.withLock { $0.contains { !$0.isVideo } }) ? "the element has one already" : nil
        if let why {
            DebugLog.llhlssink.warning(element, "no pad \(name): \(why)")
            return nil
        }
        let rendition = Rendition(name: name, isVideo: video)
        renditions.withLock { $0.append(rendition) }
        return rendition
    }

    func release(_ rendition: Rendition) {
        renditions.withLock { $0.removeAll { $0 === rendition } }
    }

    func chain(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: Rendition, _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        defer { gst_buffer_unref(buffer) }
        guard let (settings, folder) = running.withLock({ $0 }) else { return GST_FLOW_FLUSHING }
        let anchor = wallClockAtZero(element)
        do {
            let outcome = try rendition.owner.run { try rendition.add(buffer, folder: folder, settings: settings, wallClockAtZero: anchor) }
            try publish(element, rendition, outcome, folder: folder)
            return GST_FLOW_OK
        } catch {
            return fail(element, rendition, error)
        }
    }

    func event(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: Rendition, _ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        defer { gst_event_unref(event) }
        switch rc_event_type(event) {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            guard let caps else { return false }
            if let problem = rendition.owner.run({ rendition.learn(caps) }) {
                rc_element_error_stream_format(element, "llhlssink: \(rendition.name): \(problem)", nil)
                return false
            }
            DebugLog.llhlssink.info(element, "\(rendition.name): \(String(cString: gst_structure_get_name(gst_caps_get_structure(caps, 0))))")
        case GST_EVENT_SEGMENT:
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            if let segment { rendition.owner.run { rendition.setSegment(segment.pointee) } }
        case GST_EVENT_EOS:
            if let (_, folder) = running.withLock({ $0 }) {
                do {
                    let outcome = try rendition.owner.run { try rendition.finish() }
                    try publish(element, rendition, outcome, folder: folder)
                } catch {
                    _ = fail(element, rendition, error)
                }
            }
            let (post, seqnum) = ladder.withLock { ladder in
                ladder.ended.insert(rendition.name)
                ladder.eosSeqnum = gst_event_get_seqnum(event)
                return (ladder.finished && ladder.playing, ladder.eosSeqnum)
            }
            DebugLog.llhlssink.debug(element, "\(rendition.name) ended")
            if post { Self.postEndOfStream(element, seqnum: seqnum) }
        case GST_EVENT_FLUSH_STOP:
            _ = ladder.withLock { $0.ended.remove(rendition.name) }
        default:
            break
        }
        return true
    }

    /// After a part: the rendition's playlist with the others' reports, and the multivariant
    /// playlist when a segment changed what it says.
    private func publish(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: Rendition, _ outcome: Rendition.Outcome,
                         folder: OutputFolder) throws {
        guard case .part(let last, let segment) = outcome else { return }
        let entry = segment != nil ? rendition.owner.run { rendition.ladderEntry } : nil
        let (reports, multivariant) = ladder.withLock { ladder in
            ladder.entries[rendition.name]?.lastPart = last
            var changed: String?
            if let entry {
                ladder.entries[rendition.name]?.format = entry.format
                ladder.entries[rendition.name]?.frameRate = entry.frameRate
                ladder.entries[rendition.name]?.peakBitrate = entry.peak
                ladder.entries[rendition.name]?.averageBitrate = entry.average
                ladder.entries[rendition.name]?.segments += 1
                if let text = ladder.multivariantText, text != ladder.multivariant {
                    ladder.multivariant = text
                    changed = text
                }
            }
            return (ladder.reports(besides: rendition.name), changed)
        }
        try rendition.owner.run { try rendition.writePlaylist(reports: reports) }
        DebugLog.llhlssink.log(element, "\(rendition.name): part \(last.sequence).\(last.index)")
        if let segment {
            DebugLog.llhlssink.debug(element, "\(rendition.name): segment \(segment.sequence), \(segment.bytes) bytes in "
                                     + "\(Int((segment.duration * 1000).rounded())) ms")
            SegmentMessage.post(element, rendition: rendition.name, segment)
        }
        if let multivariant {
            try folder.write(Self.multivariantName, multivariant)
            DebugLog.llhlssink.debug(element, "multivariant playlist written")
        }
    }

    private func fail(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: Rendition, _ error: any Error) -> GstFlowReturn {
        switch error {
        case let failure as OutputFolder.Failure:
            rc_element_error_resource(element, GST_RESOURCE_ERROR_WRITE, "llhlssink cannot write \(failure.path): \(failure.reason)", nil)
            return GST_FLOW_ERROR
        case Rendition.Refusal.notNegotiated(let text):
            rc_element_error_stream_format(element, "llhlssink: \(text)", nil)
            return GST_FLOW_NOT_NEGOTIATED
        case Rendition.Refusal.stream(let text):
            rc_element_error_stream_format(element, "llhlssink: \(text)", nil)
            return GST_FLOW_ERROR
        default:
            rc_element_error_stream_format(element, "llhlssink: \(rendition.name): \(error)", nil)
            return GST_FLOW_ERROR
        }
    }

    /// The wall clock at running time 0, fixed by the first buffer of any rendition: now,
    /// less the running time the pipeline's clock gives (or, with no clock yet, 0).
    private func wallClockAtZero(_ element: UnsafeMutablePointer<RcLLHLSSink>) -> Double {
        if let known = ladder.withLock({ $0.wallClockAtZero }) { return known }
        let now = Double(g_get_real_time()) / 1e6
        var runningNow: GstClockTime = 0
        if let clock = gst_element_get_clock(rc_element(element)) {
            let time = gst_clock_get_time(clock)
            let base = gst_element_get_base_time(rc_element(element))
            if time != GstClockTime.none, time > base { runningNow = time - base }
            gst_object_unref(clock)
        }
        return ladder.withLock { ladder in
            if ladder.wallClockAtZero == nil { ladder.wallClockAtZero = now - Timebase.seconds(runningNow) }
            return ladder.wallClockAtZero!
        }
    }

    static func postEndOfStream(_ element: UnsafeMutablePointer<RcLLHLSSink>, seqnum: guint32?) {
        let eos = gst_message_new_eos(rc_object(element))!
        if let seqnum { gst_message_set_seqnum(eos, seqnum) }
        DebugLog.llhlssink.debug(element, "posting EOS")
        gst_element_post_message(rc_element(element), eos)
    }
}

extension RcLLHLSSink: SwiftStateSlot {}

@_cdecl("rc_llhlssink_state_new")
func llhlsSinkStateNew() -> UnsafeMutableRawPointer { LLHLSSink().retained() }

@_cdecl("rc_llhlssink_start")
func llhlsSinkStart(_ element: UnsafeMutablePointer<RcLLHLSSink>) -> gboolean { LLHLSSink.of(element).start(element) ? 1 : 0 }

@_cdecl("rc_llhlssink_stop")
func llhlsSinkStop(_ element: UnsafeMutablePointer<RcLLHLSSink>) { LLHLSSink.of(element).stop(element) }

@_cdecl("rc_llhlssink_set_playing")
func llhlsSinkSetPlaying(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ playing: gboolean) {
    LLHLSSink.of(element).setPlaying(element, playing != 0)
}

@_cdecl("rc_llhlssink_rendition_new")
func llhlsSinkRenditionNew(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ pad: UnsafeMutablePointer<GstPad>,
                           _ video: gboolean) -> UnsafeMutableRawPointer? {
    LLHLSSink.of(element).newRendition(element, pad, video: video != 0).map { Unmanaged.passRetained($0).toOpaque() }
}

@_cdecl("rc_llhlssink_rendition_release")
func llhlsSinkRenditionRelease(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: UnsafeMutableRawPointer?) {
    guard let rendition else { return }
    let object = Unmanaged<Rendition>.fromOpaque(rendition)
    LLHLSSink.of(element).release(object.takeUnretainedValue())
    object.release()
}

@_cdecl("rc_llhlssink_chain")
func llhlsSinkChain(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: UnsafeMutableRawPointer,
                    _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
    LLHLSSink.of(element).chain(element, Unmanaged<Rendition>.fromOpaque(rendition).takeUnretainedValue(), buffer)
}

@_cdecl("rc_llhlssink_sink_event")
func llhlsSinkSinkEvent(_ element: UnsafeMutablePointer<RcLLHLSSink>, _ rendition: UnsafeMutableRawPointer,
                        _ event: UnsafeMutablePointer<GstEvent>) -> gboolean {
    LLHLSSink.of(element).event(element, Unmanaged<Rendition>.fromOpaque(rendition).takeUnretainedValue(), event) ? 1 : 0
}
