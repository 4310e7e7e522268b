// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import ReplayKitModel

extension DebugLog {
    static let replaykitsrc = DebugLog("replaykitsrc")
}

/// Per-element state of replaykitsrc. The running broadcast (configuration, timeline,
/// producers) is built on READY -> PAUSED (before the tasks start) and dropped on
/// PAUSED -> READY (after they stopped), so every run from READY starts the broadcast afresh.
/// Action signals and queries read it from application threads while a state change may be
/// dropping it, so it lives behind one lock: a reader takes its own references out, then
/// works without the lock. Each producer is touched only by its own task and the timeline
/// synchronises itself.
final class ReplayKitSource: SwiftState, Sendable {
    typealias Instance = RcReplayKitSrc
    /// What exists between start and stop.
    private struct Running: Sendable {
        let configuration: BroadcastConfiguration
        let timeline: BroadcastTimeline
        let producers: [StreamProducer]
        let memoryWatch: MemoryWatch?
    }

    nonisolated(unsafe) let element: UnsafeMutablePointer<RcReplayKitSrc>
    private let running = Locked<Running?>(nil)
    let waits = StreamWaits()
    /// Why the last refused string property value was refused; opening fails while it stands.
    private let rejection = Locked<String?>(nil)

    init(element: UnsafeMutablePointer<RcReplayKitSrc>) { self.element = element }

    /// The string properties have a grammar and are checked when set: a bad value is refused
    /// (the property keeps its previous value), said in a warning, and kept as the reason the
    /// next start fails, so a broadcast never runs with a silently ignored schedule.
    func accept(_ text: String, for property: String) -> Bool {
        let problem = BroadcastConfiguration.problem(with: text, property: property)
        rejection.withLock { $0 = problem }
        if let problem {
            let name = rc_object_name(element).map { String(cString: $0) } ?? "replaykitsrc"
            GLibMessages.warning("\(name): \(problem)")
        }
        return problem == nil
    }

    func open() -> Bool {
        guard let problem = rejection.withLock({ $0 }) else { return true }
        rc_element_error_library_settings(element, problem, nil)
        return false
    }

    func start() -> Bool {
        Self.properties.withSettings(of: element) { start($0) }
    }

    private func start(_ settings: RcReplayKitSrcSettings) -> Bool {
        var opened: BroadcastConfiguration?
        do {
            let configuration = try BroadcastConfiguration(settings, element: element)
            opened = configuration
            logContent(configuration)
            let timeline = BroadcastTimeline(configuration: configuration, videoFinish: Self.videoFinish(configuration))
            let group = gst_util_group_id_next()
            let producers: [StreamProducer] = [
                try VideoProducer(element: element, timeline: timeline, configuration: configuration, groupID: group),
                AudioProducer(kind: RC_STREAM_APP, element: element, timeline: timeline, configuration: configuration, groupID: group),
                AudioProducer(kind: RC_STREAM_MIC, element: element, timeline: timeline, configuration: configuration, groupID: group),
            ]
            let watch = configuration.memoryLimit.map { limit in
                DebugLog.replaykitsrc.info(element, "memory-limit: the broadcast ends above \(limit) bytes of private memory")
                return MemoryWatch(limit: limit) { [weak self] footprint in self?.killed(footprint: footprint, limit: limit) }
            }
            running.withLock {
                $0 = Running(configuration: configuration, timeline: timeline, producers: producers, memoryWatch: watch)
            }
            return true
        } catch {
            opened?.screen?.close()
            rc_element_error_library_settings(element, "replaykitsrc: \(error)", nil)
            return false
        }
    }

    private func logContent(_ c: BroadcastConfiguration) {
        if let trace = c.trace {
            let counts = BroadcastTrace.SampleType.allCases.map { "\(trace.samples(of: $0).count) \($0)" }.joined(separator: ", ")
            DebugLog.replaykitsrc.info(element, "replaying a trace: \(counts), \(trace.events.count) lifecycle events")
        }
        if let screen = c.screen {
            DebugLog.replaykitsrc.info(element, "screen-location \(screen.path): \(screen.duration.map { "\($0) ns" } ?? "no duration"), "
                                       + "orientation \(screen.frames.orientation.map { "\($0)" } ?? "not given")")
        }
        for (property, clips) in [("app-location", c.appClips), ("mic-location", c.micClips)] {
            for clip in clips {
                DebugLog.replaykitsrc.info(element, "\(property) decoded: \(clip.frames) frames at \(clip.rate) Hz, \(clip.channels) channels, "
                                           + (clip.loops ? "looping" : "finishing the broadcast at its end"))
            }
        }
    }

    /// With num-frames, the broadcast finishes when the N-th frame ends. Frame times depend
    /// only on the activity and the schedule (or the trace), so that time is known before the start.
    private static func videoFinish(_ c: BroadcastConfiguration) -> UInt64? {
        guard let target = c.numFrames else { return nil }
        guard target > 0 else { return 0 }
        let events = BroadcastTimeline(configuration: c, videoFinish: nil)
        var count = 0
        for (time, duration) in frameTimes(c) {
            if let finish = events.finishTime, time >= finish { return nil }
            if events.state(at: time).deliversVideo {
                count += 1
                if count == target { return time + duration }
            }
        }
        return nil
    }

    private static func frameTimes(_ c: BroadcastConfiguration) -> AnySequence<(UInt64, UInt64)> {
        if let trace = c.trace {
            return AnySequence(trace.samples(of: .video).map { ($0.time, $0.duration ?? VideoProducer.duration(ofFrameAt: $0.time)) })
        }
        return AnySequence(sequence(state: UInt64?.none) { last -> (UInt64, UInt64)? in
            guard let time = c.nextFrameTime(after: last) else { return nil }
            last = time
            return (time, VideoProducer.duration(ofFrameAt: time))
        })
    }

    private var configuration: BroadcastConfiguration? { running.withLock { $0?.configuration } }

    /// screen-location's pictures while a broadcast runs.
    var screenFrames: ScreenFrames? { running.withLock { $0?.configuration.screen?.frames } }

    var isLive: Bool { configuration?.live ?? settingsSayLive }

    /// `is-live` as set now; a running broadcast keeps the value it started with.
    private var settingsSayLive: Bool {
        Self.properties.withSettings(of: element) { $0.is_live != 0 }
    }

    /// The broadcast is taken out under the lock and released after it.
    func stop() {
        let stopped = running.withLock { $0.take() }
        if let screen = stopped?.configuration.screen {
            let counts = screen.frames.counts
            DebugLog.replaykitsrc.info(element, "screen-location: \(counts.decoded) pictures decoded, \(counts.repeated) the same as the one before, "
                                       + "\(counts.shown) shown, \(counts.superseded) replaced within their slot, \(counts.late) decoded after their slot "
                                       + "(the latest by \(Timebase.milliseconds(counts.worstLateness)) ms)")
            screen.close()
        }
    }

    /// What an app sees when ReplayKit kills its upload extension for memory: the broadcast
    /// finishes with an error. Here every stream still ends, so the outputs can finish their
    /// files.
    private func killed(footprint: UInt64, limit: UInt64) {
        let megabytes = { (bytes: UInt64) -> String in
            let tenths = (bytes + 50_000) / 100_000
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        let text = "The upload extension was killed: it held \(megabytes(footprint)) of memory, above its limit of "
            + "\(megabytes(limit)) (memory-limit), as ReplayKit ends an extension over its memory limit"
        DebugLog.replaykitsrc.warning(element, text)
        rc_element_error_resource(element, GST_RESOURCE_ERROR_NO_SPACE_LEFT, text,
                                  "private resident memory \(footprint) bytes > memory-limit \(limit) bytes")
        _ = apply(.finish)
    }

    func step(_ kind: RcStreamKind) -> Bool {
        let index = Int(kind.rawValue)
        guard let producer = running.withLock({ $0.flatMap { index < $0.producers.count ? $0.producers[index] : nil } })
        else { return false }
        return producer.owner.run { producer.step() }
    }

    /// A live stream's data for [t, t + d) exists only at t + d: its latency is its longest buffer.
    private func latency(_ kind: RcStreamKind, _ c: BroadcastConfiguration) -> GstClockTime {
        switch kind {
        case RC_STREAM_VIDEO:
            return GstClockTime(VideoProducer.duration(ofFrameAt: 0))
        case RC_STREAM_APP:
            return Self.longestBuffer(c.app.cadence.framesPerBuffer, rates: [c.app.rate])
        default:
            let rates = [c.mic.rate] + c.schedule.events.compactMap { event -> Int? in
                if case .micFormat(let rate, _) = event.action { return rate }
                return nil
            }
            return Self.longestBuffer(c.mic.cadence.framesPerBuffer, rates: rates)
        }
    }

    private static func longestBuffer(_ frames: Int, rates: [Int]) -> GstClockTime {
        GstClockTime(Timebase.nanoseconds(UInt64(frames), atRate: UInt64(rates.min() ?? 48000), .up))
    }

    func query(_ kind: RcStreamKind, _ query: UnsafeMutablePointer<GstQuery>) -> Bool {
        guard rc_query_type(query) == GST_QUERY_LATENCY else { return false }
        let running = configuration
        let live = running?.live ?? settingsSayLive
        let minimum = live ? running.map { latency(kind, $0) } ?? 0 : 0
        gst_query_set_latency(query, live ? 1 : 0, minimum, GstClockTime.none)
        return true
    }

    func act(_ action: RcBroadcastAction) {
        switch action {
        case RC_ACTION_PAUSE: _ = apply(.pause)
        case RC_ACTION_RESUME: _ = apply(.resume)
        default: _ = apply(.finish)
        }
    }

    /// The `event` action signal: any scheduled action, now. Refused (FALSE, with a warning)
    /// when the text is not one, or when the broadcast is not running.
    func act(parsing text: String) -> Bool {
        switch BroadcastSchedule.action(text[...]) {
        case .failure(let error):
            DebugLog.replaykitsrc.warning(element, "event \"\(text)\" refused: \(error.reason)")
            return false
        case .success(let action):
            guard apply(action) else {
                DebugLog.replaykitsrc.warning(element, "event \"\(text)\" refused: the broadcast is not running (READY or NULL)")
                return false
            }
            return true
        }
    }

    /// An action now: at the current clock time live, where the furthest stream is otherwise.
    /// False when there is no broadcast (READY or NULL).
    private func apply(_ action: BroadcastAction) -> Bool {
        guard let (timeline, live) = running.withLock({ $0.map { ($0.timeline, $0.configuration.live) } }) else { return false }
        timeline.act(action, now: live ? UInt64(StreamWaits.runningTime(of: rc_element(element))) : nil)
        waits.wake()
        return true
    }
}

extension RcReplayKitSrc: SwiftStateSlot {}

@_cdecl("rc_replaykitsrc_state_new")
func replayKitSourceNew(_ element: UnsafeMutablePointer<RcReplayKitSrc>) -> UnsafeMutableRawPointer { ReplayKitSource(element: element).retained() }

@_cdecl("rc_replaykitsrc_open")
func replayKitSourceOpen(_ element: UnsafeMutablePointer<RcReplayKitSrc>) -> gboolean {
    ReplayKitSource.of(element).open() ? 1 : 0
}

@_cdecl("rc_replaykitsrc_start")
func replayKitSourceStart(_ element: UnsafeMutablePointer<RcReplayKitSrc>) -> gboolean {
    ReplayKitSource.of(element).start() ? 1 : 0
}

@_cdecl("rc_replaykitsrc_is_live")
func replayKitSourceIsLive(_ element: UnsafeMutablePointer<RcReplayKitSrc>) -> gboolean {
    ReplayKitSource.of(element).isLive ? 1 : 0
}

@_cdecl("rc_replaykitsrc_stop")
func replayKitSourceStop(_ element: UnsafeMutablePointer<RcReplayKitSrc>) {
    ReplayKitSource.of(element).stop()
}

@_cdecl("rc_replaykitsrc_set_flushing")
func replayKitSourceSetFlushing(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ flushing: gboolean) {
    let source = ReplayKitSource.of(element)
    source.waits.setFlushing(flushing != 0)
    source.screenFrames?.setInterrupted(flushing != 0)
}

@_cdecl("rc_replaykitsrc_set_playing")
func replayKitSourceSetPlaying(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ playing: gboolean) {
    ReplayKitSource.of(element).waits.setPlaying(playing != 0)
}

@_cdecl("rc_replaykitsrc_stream_step")
func replayKitSourceStep(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ kind: RcStreamKind) -> gboolean {
    ReplayKitSource.of(element).step(kind) ? 1 : 0
}

/// A capture cannot seek (refused); it answers no reconfiguration, latency or QoS (taken and
/// dropped: nothing upstream to tell); everything else as GStreamer's default.
@_cdecl("rc_replaykitsrc_src_event")
func replayKitSourceSrcEvent(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ pad: UnsafeMutablePointer<GstPad>,
                             _ event: UnsafeMutablePointer<GstEvent>) -> gboolean {
    switch rc_event_type(event) {
    case GST_EVENT_SEEK:
        DebugLog.replaykitsrc.debug(element, "seek refused on \(String(cString: rc_object_name(pad))): a live capture cannot seek")
        gst_event_unref(event)
        return 0
    case GST_EVENT_RECONFIGURE, GST_EVENT_LATENCY, GST_EVENT_QOS:
        gst_event_unref(event)
        return 1
    default:
        return gst_pad_event_default(pad, rc_object(element), event)
    }
}

@_cdecl("rc_replaykitsrc_query")
func replayKitSourceQuery(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ kind: RcStreamKind,
                          _ query: UnsafeMutablePointer<GstQuery>) -> gboolean {
    ReplayKitSource.of(element).query(kind, query) ? 1 : 0
}

@_cdecl("rc_replaykitsrc_event")
func replayKitSourceEvent(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ action: UnsafePointer<gchar>) -> gboolean {
    ReplayKitSource.of(element).act(parsing: String(cString: action)) ? 1 : 0
}

@_cdecl("rc_replaykitsrc_action")
func replayKitSourceAction(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ action: RcBroadcastAction) {
    ReplayKitSource.of(element).act(action)
}
