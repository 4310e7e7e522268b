// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

extension DebugLog {
    static let rtmpreconnectsink = DebugLog("rtmpreconnectsink")
}

/// rtmpreconnectsink's Swift side. The streaming threads (one per request pad) decide per
/// buffer through the gate; the connection thread (ConnectionThread), which exists between
/// start and stop, makes and breaks connections. Neither holds the gate's lock while pushing
/// or posting.
final class RtmpReconnectSink: SwiftState {
    typealias Instance = RcRtmpReconnectSink
    let gate = Locked(PublishGate())
    /// Between start and stop (both on the thread changing the element's state); read by the
    /// streaming threads, which take the reference out and call it with the lock released.
    private let worker = Locked<ConnectionThread?>(nil)
    /// The current attempt's network sink, for `stats` (read on any thread), and the last
    /// statistics of the attempt before it, taken as it closed; set by the connection thread.
    /// The closed attempt's sink itself is kept (`retired`) until the next attempt's sink
    /// exists or the element goes, as srtsink keeps libsrt started while it exists: when
    /// the last srtsink goes, libsrt ends (srt_cleanup), and that takes 1.0 s in libsrt
    /// 1.5.7 (Debian sid; 2-8 ms in 1.5.1 and 1.5.4). Released at each close, it held every
    /// stop, and the connection thread between attempts, for that second.
    private let attemptSink = Locked<(sink: UnsafeMutablePointer<GstElement>?, last: UnsafeMutablePointer<GstStructure>?,
                                      retired: UnsafeMutablePointer<GstElement>?)>((nil, nil, nil))

    deinit {
        attemptSink.withLock { current in
            for sink in [current.sink, current.retired].compactMap({ $0 }) { gst_object_unref(sink) }
            if let last = current.last { gst_structure_free(last) }
        }
    }

    /// A new attempt's sink, or nil when the attempt closes: its statistics so far are kept.
    func attempt(sink: UnsafeMutablePointer<GstElement>?) {
        if let sink { gst_object_ref(sink) }
        let (old, retired) = attemptSink.withLock { current in
            defer {
                current.sink = sink
                if sink != nil { current.retired = nil }
            }
            return (current.sink, sink != nil ? current.retired : nil)
        }
        if let retired { gst_object_unref(retired) }
        guard let old else { return }
        // An attempt that never connected has no statistics: the last connection's stay.
        let last = SinkStatistics.read(old) { $0.flatMap { gst_structure_copy($0) } }
        let (staleStats, staleSink) = attemptSink.withLock { current in
            defer {
                if last != nil { current.last = last }
                current.retired = old
            }
            return (last != nil ? current.last : nil, current.retired)
        }
        if let staleStats { gst_structure_free(staleStats) }
        if let staleSink { gst_object_unref(staleSink) }
    }

    /// The current attempt's sink's statistics (rtmp2sink's or srtsink's `stats`), or between
    /// attempts and while an SRT attempt connects the last connection's, a copy; nil before
    /// the first.
    func stats() -> UnsafeMutablePointer<GstStructure>? {
        let (sink, last) = attemptSink.withLock { current in
            (current.sink.map { gst_object_ref($0); return $0 }, current.last.flatMap { gst_structure_copy($0) })
        }
        guard let sink else { return last }
        defer { gst_object_unref(sink) }
        guard let now = SinkStatistics.read(sink, { $0.map { gst_structure_copy($0) } }) else { return last }
        if let last { gst_structure_free(last) }
        return now
    }

    static func settings(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>) -> PublishSettings {
        properties.withSettings(of: element) { PublishSettings($0) }
    }

    /// A request pad and the source pad that feeds its stream to the current connection.
    typealias Pad = (stream: RcPublishStream, sink: UnsafeMutablePointer<GstPad>, out: UnsafeMutablePointer<GstPad>)

    static func pads(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>) -> [Pad] {
        withObjectLock(element) {
            var pads: [Pad] = []
            if let sink = element.pointee.sinkpads.0, let out = element.pointee.outpads.0 { pads.append((RC_PUBLISH_VIDEO, sink, out)) }
            if let sink = element.pointee.sinkpads.1, let out = element.pointee.outpads.1 { pads.append((RC_PUBLISH_AUDIO, sink, out)) }
            return pads
        }
    }

    /// The stream's connection pad, with a reference of the caller's (nil once released).
    /// Taken under the object lock: `release_pad`, on an application thread, clears the slot
    /// and drops the element's reference while the stream's thread may still be in `chain`.
    static func outpad(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream) -> UnsafeMutablePointer<GstPad>? {
        withObjectLock(element) {
            let out = stream == RC_PUBLISH_VIDEO ? element.pointee.outpads.0 : element.pointee.outpads.1
            if let out { gst_object_ref(out) }
            return out
        }
    }

    func start(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>) -> Bool {
        let settings = Self.settings(element)
        if let problem = settings.locationProblem {
            rc_element_error_resource(element, GST_RESOURCE_ERROR_NOT_FOUND, problem, "location=\(PublishTransport.shown(settings.location))")
            return false
        }
        let pads = Self.pads(element)
        guard !pads.isEmpty else {
            rc_element_error_resource(element, GST_RESOURCE_ERROR_SETTINGS, "rtmpreconnectsink has no video or audio pad",
                                      "link an H.264 stream to its video pad and/or an AAC stream to its audio pad")
            return false
        }
        for pad in pads { gst_pad_set_active(pad.out, 1) }
        gate.withLock { $0.reset(streams: Set(pads.map { Int($0.stream.rawValue) }),
                                 keep: settings.keep, keepDuration: settings.bufferDuration) }
        do {
            let thread = try ConnectionThread(element: element, gate: gate, settings: settings, pads: pads)
            worker.withLock { $0 = thread }
        } catch {
            rc_element_error_resource(element, GST_RESOURCE_ERROR_FAILED, "rtmpreconnectsink cannot start", error.reason)
            for pad in pads { gst_pad_set_active(pad.out, 0) }
            return false
        }
        DebugLog.rtmpreconnectsink.info(element, "publishing \(pads.count) streams to \(PublishTransport.shown(settings.location)), "
                                        + "\(settings.keep ? "keeping" : "dropping") data while disconnected")
        return true
    }

    func stop(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>) {
        worker.withLock { $0.take() }?.stop()
        for pad in Self.pads(element) { gst_pad_set_active(pad.out, 0) }
        gate.withLock { $0.reset(streams: [], keep: false, keepDuration: 0) }
        RtmpReconnectSink.publish(element, RC_PUBLISH_STOPPED, 0)
    }

    /// PAUSED → PLAYING (true) and back: an EOS that is due is posted on entering PLAYING.
    func setPlaying(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ playing: Bool) {
        let (post, seqnum) = gate.withLock { gate in
            gate.playing = playing
            return (playing && gate.finished, gate.eosSeqnum)
        }
        if post { Self.postEndOfStream(element, seqnum: seqnum) }
    }

    static func postEndOfStream(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, seqnum: guint32?) {
        let eos = gst_message_new_eos(rc_object(element))!
        if let seqnum { gst_message_set_seqnum(eos, seqnum) }
        DebugLog.rtmpreconnectsink.debug(element, "posting EOS")
        gst_element_post_message(rc_element(element), eos)
    }

    func chain(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream,
               _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        let index = Int(stream.rawValue)
        if gate.withLock({ $0.live == nil }) { learnLiveness(element, stream) }
        let admission = gate.withLock { $0.admit(buffer, stream: index) }
        if case .gap(let pts, let duration) = admission {
            DebugLog.rtmpreconnectsink.log(element, "video buffer held back while the link drains: a GAP event in its place")
            if let out = Self.outpad(element, stream) {
                _ = gst_pad_push_event(out, gst_event_new_gap(pts, duration))
                gst_object_unref(out)
            }
            return GST_FLOW_OK
        }
        guard case .push(let kept, let admitted) = admission else {
            DebugLog.rtmpreconnectsink.log(element, "\(stream.name) buffer held or dropped")
            return GST_FLOW_OK
        }
        // A pad released meanwhile has no connection pad: what was admitted is dropped.
        let out = Self.outpad(element, stream)
        defer { if let out { gst_object_unref(out) } }
        var failed = out == nil
        func send(_ buffer: UnsafeMutablePointer<GstBuffer>) {
            guard !failed, let out else { return gst_buffer_unref(buffer) }
            let flow = gst_pad_push(out, buffer)
            if flow != GST_FLOW_OK {
                // The connection is failing: its thread hears why from rtmp2sink. The rest of
                // the pipeline goes on.
                DebugLog.rtmpreconnectsink.debug(element, "push into the connection: \(String(cString: gst_flow_get_name(flow)))")
                failed = true
            }
        }
        kept.forEach(send)
        send(admitted)
        return GST_FLOW_OK
    }

    /// The first buffer asks upstream whether the pipeline is live: then a connection's
    /// queues drop the oldest data instead of holding up the pipeline.
    private func learnLiveness(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream) {
        guard let pad = Self.pads(element).first(where: { $0.stream == stream })?.sink else { return }
        let query = gst_query_new_latency()!
        var live: gboolean = 0
        if gst_pad_peer_query(pad, query) != 0 { gst_query_parse_latency(query, &live, nil, nil) }
        gst_query_unref(query)
        gate.withLock { $0.live = live != 0 }
        DebugLog.rtmpreconnectsink.info(element, live != 0 ? "live pipeline: connections drop the oldest data when behind"
                                                           : "non-live pipeline: connections hold data until sent")
        if live != 0 { worker.withLock { $0 }?.makeLeaky() }
    }

    func event(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream,
               _ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        let index = Int(stream.rawValue)
        let out = Self.outpad(element, stream)
        defer { if let out { gst_object_unref(out) } }
        switch rc_event_type(event) {
        case GST_EVENT_EOS:
            let (pushing, allEnded, kept) = gate.withLock { $0.end(index, seqnum: gst_event_get_seqnum(event)) }
            if pushing, let out {
                // A connection accepted after the stream's last buffer: nothing else pushes what was kept.
                for buffer in kept { _ = gst_pad_push(out, buffer) }
                _ = gst_pad_push_event(out, event)
            } else {
                kept.forEach { gst_buffer_unref($0) }
                gst_event_unref(event)
            }
            if allEnded { worker.withLock { $0 }?.allStreamsEnded() }
            return true
        case GST_EVENT_SEGMENT:
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            if let segment { gate.withLock { $0.segments[index] = segment.pointee } }
        case GST_EVENT_FLUSH_STOP:
            gate.withLock { gate in
                gate.ended.remove(index)
                gate.finished = false
                gate.awaitingKeyframe = true
            }
        default:
            break
        }
        // Sticky events are stored on the pad even while it is not linked, and reach the next
        // connection's muxer when it is: each connection starts with the current caps and segment.
        guard let out else { gst_event_unref(event); return false }
        _ = gst_pad_push_event(out, event)
        return true
    }

    /// A released pad's stream ends in the current connection, so its muxer does not wait for it.
    func release(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream,
                 _ out: UnsafeMutablePointer<GstPad>) {
        gate.withLock { _ = $0.streams.remove(Int(stream.rawValue)) }
        _ = gst_pad_push_event(out, gst_event_new_eos())
    }
}

extension RcPublishStream {
    /// The pad's name, and its branch's in each connection's pipeline.
    var name: String { self == RC_PUBLISH_VIDEO ? "video" : "audio" }
}

/// The properties, as Swift works with them.
struct PublishSettings {
    var location: String
    /// After a loss (`retries`), and before the first connection (`connect-retries`): a
    /// server that was never reached is more likely a wrong URL or a dead server than a
    /// network hiccup, so it gets fewer attempts by default.
    var policy: ReconnectPolicy
    var connectPolicy: ReconnectPolicy
    var keep: Bool
    var bufferDuration: GstClockTime
    /// kbit/s, with adaptive-bitrate; nil without.
    var minimumBitrate: Int?

    init(_ raw: RcRtmpReconnectSinkSettings) {
        location = raw.location.map { String(cString: $0) } ?? ""
        func limited(to retries: gint) -> ReconnectPolicy {
            ReconnectPolicy(retries: retries < 0 ? nil : Int(retries), firstDelay: UInt64(raw.retry_delay),
                            maxDelay: UInt64(raw.retry_max_delay), factor: raw.backoff_factor)
        }
        policy = limited(to: raw.retries)
        connectPolicy = limited(to: raw.connect_retries)
        keep = raw.while_disconnected == RC_WHILE_DISCONNECTED_KEEP
        bufferDuration = raw.buffer_duration
        minimumBitrate = raw.adaptive_bitrate != 0 ? Int(raw.min_bitrate) : nil
    }

    /// Why `location` cannot be published to, or nil.
    var locationProblem: String? {
        if location.isEmpty {
            return "No location set: rtmpreconnectsink needs an RTMP URL (rtmp://host/application/stream) or an SRT one "
                + "(srt://host:port)"
        }
        guard PublishTransport(location: location) != nil else {
            return "Location \(PublishTransport.shown(location)) is neither an RTMP nor an SRT URL: it must start with rtmp://, rtmps:// or srt://"
        }
        return nil
    }
}

extension RcRtmpReconnectSink: SwiftStateSlot {}

@_cdecl("rc_rtmpreconnectsink_state_new")
func rtmpReconnectSinkStateNew() -> UnsafeMutableRawPointer { RtmpReconnectSink().retained() }

@_cdecl("rc_rtmpreconnectsink_start")
func rtmpReconnectSinkStart(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>) -> gboolean {
    RtmpReconnectSink.of(element).start(element) ? 1 : 0
}

@_cdecl("rc_rtmpreconnectsink_stop")
func rtmpReconnectSinkStop(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>) {
    RtmpReconnectSink.of(element).stop(element)
}

@_cdecl("rc_rtmpreconnectsink_set_playing")
func rtmpReconnectSinkSetPlaying(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ playing: gboolean) {
    RtmpReconnectSink.of(element).setPlaying(element, playing != 0)
}

@_cdecl("rc_rtmpreconnectsink_chain")
func rtmpReconnectSinkChain(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream,
                            _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
    RtmpReconnectSink.of(element).chain(element, stream, buffer)
}

@_cdecl("rc_rtmpreconnectsink_sink_event")
func rtmpReconnectSinkSinkEvent(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream,
                                _ event: UnsafeMutablePointer<GstEvent>) -> gboolean {
    RtmpReconnectSink.of(element).event(element, stream, event) ? 1 : 0
}

/// Upstream of a connection's muxer the element answers not live, so the muxer interleaves
/// by timestamp and never waits on a clock: the data already arrives at the pipeline's pace.
/// Nothing else is answered from there.
@_cdecl("rc_rtmpreconnectsink_out_query")
func rtmpReconnectSinkOutQuery(_ query: UnsafeMutablePointer<GstQuery>) -> gboolean {
    guard rc_query_type(query) == GST_QUERY_LATENCY else { return 0 }
    gst_query_set_latency(query, 0, 0, GstClockTime.max)
    return 1
}

/// One pad per stream, requested before streaming: the FLV header that names the streams
/// goes out when streaming starts, so a stream added later could never be announced.
@_cdecl("rc_rtmpreconnectsink_may_add_pad")
func rtmpReconnectSinkMayAddPad(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream) -> gboolean {
    let (streaming, taken) = withObjectLock(element) {
        let states = (current: rc_element(element).pointee.current_state, pending: rc_element(element).pointee.pending_state)
        return (states.current.rawValue > GST_STATE_READY.rawValue || states.pending.rawValue > GST_STATE_READY.rawValue,
                (stream == RC_PUBLISH_VIDEO ? element.pointee.sinkpads.0 : element.pointee.sinkpads.1) != nil)
    }
    guard taken || streaming else { return 1 }
    let why = taken ? "the element has one already" : "the FLV header naming the streams is sent when streaming starts"
    DebugLog.rtmpreconnectsink.warning(element, "no \(stream.name) pad: \(why)")
    return 0
}

@_cdecl("rc_rtmpreconnectsink_release")
func rtmpReconnectSinkRelease(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ stream: RcPublishStream,
                              _ out: UnsafeMutablePointer<GstPad>) {
    RtmpReconnectSink.of(element).release(element, stream, out)
}
