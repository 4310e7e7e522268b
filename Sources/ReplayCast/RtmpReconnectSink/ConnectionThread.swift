// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport

/// The thread that owns rtmpreconnectsink's connection between start and stop: it starts
/// attempts, hears from each attempt's pipeline (through the inbox), decides what a failure
/// means, waits out the backoff and posts the element's messages. The element talks to it
/// only through the inbox, so it never waits on the element's streaming threads.
final class ConnectionThread {
    private let element: UnsafeMutablePointer<RcRtmpReconnectSink>
    private let gate: Locked<PublishGate>
    private let pads: [RtmpReconnectSink.Pad]
    /// GAsyncQueue of GstMessage: the attempts' bus messages and the element's requests.
    private let inbox: OpaquePointer
    private var thread: UnsafeMutablePointer<GThread>?

    private var connection: PublishAttempt?
    /// Where the attempts go, as every message and log names it (PublishTransport.shown).
    private var location: String
    /// Attempts since a stream was last accepted (0: the first connection).
    private var attempt = 0
    private var accepted = false
    private var everAccepted = false
    private var reconnections: guint = 0
    private var lostAt: GstClockTime?
    private var retryAt: GstClockTime?
    private var endDeadline: GstClockTime?
    /// The end of the stream reached the sink; the connection closes then (PublishTransport.linger).
    private var lingerUntil: GstClockTime?
    /// With adaptive-bitrate, once an encoder was found upstream.
    private var adaptation: BitrateAdaptation?
    private var srtLink = SrtLinkReading()
    private var recovery = SrtPictureRecovery()
    private var encoder: VideoEncoder?
    private var nextAdaptation: GstClockTime = 0

    /// How long the end of the stream may take to reach the server before EOS is posted anyway.
    static let endTimeout: GstClockTime = 10_000_000_000
    private static let poll: GstClockTime = 100_000_000

    private enum Request: String {
        case stop = "rtmpreconnectsink-stop"
        case live = "rtmpreconnectsink-live"
        case ended = "rtmpreconnectsink-ended"
    }

    /// Starts the first attempt before returning, so data that arrives next has somewhere to go.
    init(element: UnsafeMutablePointer<RcRtmpReconnectSink>, gate: Locked<PublishGate>, settings: PublishSettings,
         pads: [RtmpReconnectSink.Pad])
        throws(PublishAttemptError) {
        self.element = element
        self.gate = gate
        self.pads = pads
        location = PublishTransport.shown(settings.location)
        inbox = g_async_queue_new_full { gst_mini_object_unref($0?.assumingMemoryBound(to: GstMiniObject.self)) }
        if let minimum = settings.minimumBitrate { findEncoder(minimum: minimum) }
        do {
            try connect()
        } catch {
            g_async_queue_unref(inbox)
            throw error
        }
        thread = g_thread_new("rtmpreconnect", { data in
            Unmanaged<ConnectionThread>.fromOpaque(data!).takeUnretainedValue().run()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { g_async_queue_unref(inbox) }

    /// Ends the connection and the thread, and returns once both are gone.
    func stop() {
        send(.stop)
        if let thread { g_thread_join(thread) }
        thread = nil
    }

    func makeLeaky() { send(.live) }
    func allStreamsEnded() { send(.ended) }

    private func send(_ request: Request) {
        let message = gst_message_new_application(nil, gst_structure_new_empty(request.rawValue))!
        g_async_queue_push(inbox, message)
    }

    private func run() {
        while true {
            let now = Self.monotonic()
            let wake = [retryAt, endDeadline, lingerUntil].compactMap { $0 }.min().map { $0 > now ? $0 - now : 0 } ?? Self.poll
            let item = g_async_queue_timeout_pop(inbox, guint64(min(wake, Self.poll) / 1000))
            checkAccepted()
            adaptBitrate()
            checkDeadlines()
            guard let item else { continue }
            let message = item.assumingMemoryBound(to: GstMessage.self)
            defer { gst_message_unref(message) }
            if !handle(message) { return }
        }
    }

    /// FALSE when the thread is to end.
    private func handle(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        if let structure = gst_message_get_structure(message), let request = Request(rawValue: String(cString: gst_structure_get_name(structure))) {
            switch request {
            case .stop:
                close()
                restoreBitrate()
                return false
            case .live:
                connection?.makeLeaky()
            case .ended:
                let (pushing, kept) = gate.withLock { ($0.pushing, !$0.kept.isEmpty) }
                if connection != nil && pushing {
                    endDeadline = Self.monotonic() + Self.endTimeout
                } else if kept && connection != nil {
                    // A short stream can end before its first connection is made: what was
                    // kept is the whole stream then, and must not be lost (`passEnded`). (Between
                    // attempts the element ends at once: the next one may be retry-max-delay away.)
                    endDeadline = Self.monotonic() + Self.endTimeout
                    DebugLog.rtmpreconnectsink.debug(element, "every stream ended while connecting: what was kept goes "
                                                     + "once \(location) accepts the stream")
                } else {
                    finish()
                }
            }
            return true
        }
        guard let connection, gst_object_has_as_ancestor(message.pointee.src, rc_object(connection.pipeline)) != 0 else {
            return true
        }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            let linger = connection.transport.linger(connection.sink)
            guard linger > 0 else { finish(); break }
            DebugLog.rtmpreconnectsink.debug(element, "the end of the stream reached the sink; closing in \(Timebase.milliseconds(linger)) ms, "
                                             + "when the receiver has played out what it holds")
            lingerUntil = Self.monotonic() + linger
        case GST_MESSAGE_ERROR:
            failed(message, connection)
        default:
            break
        }
        return true
    }

    private func checkAccepted() {
        guard let connection, !accepted, connection.pollAnswered(now: Self.monotonic()) else { return }
        accepted = true
        let (dropped, opening) = gate.withLock { gate -> (GstClockTime, PublishGate.Opening) in
            defer { gate.dropped = 0 }
            return (gate.dropped, gate.open(.connected))
        }
        if everAccepted {
            reconnections += 1
            PublishMessages.reconnected(element, location: location, attempt: attempt,
                                     downtime: lostAt.map { Self.monotonic() - $0 } ?? 0, dropped: dropped)
        } else {
            PublishMessages.connected(element, location: location, attempt: attempt)
        }
        everAccepted = true
        attempt = 0
        adaptation?.restart()
        srtLink.restart()
        recovery.restart()
        RtmpReconnectSink.publish(element, RC_PUBLISH_CONNECTED, reconnections)
        opened(opening)
    }

    private func opened(_ opening: PublishGate.Opening) {
        if opening.awaitsKeyframe { requestKeyframe() }
        passEnded(opening.ended)
    }

    /// Streams that ended while the gate was shut (by stream, nil for one still running): no
    /// streaming thread pushes for them any more, so this one pushes what was kept of them, in
    /// time order across them, each one's end right after its last buffer (the muxer takes a
    /// buffer only once every stream has one or has ended). Their queues are unbounded first:
    /// what was kept is at most buffer-duration, and a push waiting on a full queue, whose muxer
    /// waits on a stream still running, would hold this thread and so the element's stop.
    private func passEnded(_ ended: [[KeptMedia.Kept]?]) {
        guard let connection, pads.contains(where: { ended[Int($0.stream.rawValue)] != nil }) else {
            ended.forEach { $0?.forEach { gst_buffer_unref($0.buffer) } }
            return
        }
        var kept = pads.map { ended[Int($0.stream.rawValue)] ?? [] }
        let outs = pads.map { ended[Int($0.stream.rawValue)] == nil ? nil : RtmpReconnectSink.outpad(element, $0.stream) }
        defer { outs.forEach { if let out = $0 { gst_object_unref(out) } } }
        for (pad, out) in zip(pads, outs) where out != nil { connection.unbound(pad.stream) }
        for (index, out) in outs.enumerated() where kept[index].isEmpty {
            if let out { _ = gst_pad_push_event(out, gst_event_new_eos()) }
        }
        var sent = 0
        while let index = kept.indices.lazy.filter({ !kept[$0].isEmpty })
            .min(by: { (kept[$0][0].time ?? 0) < (kept[$1][0].time ?? 0) }) {
            let buffer = kept[index].removeFirst().buffer
            // A pad released meanwhile has no connection pad: its buffers go nowhere.
            guard let out = outs[index] else { gst_buffer_unref(buffer); continue }
            if gst_pad_push(out, buffer) == GST_FLOW_OK { sent += 1 }
            if kept[index].isEmpty { _ = gst_pad_push_event(out, gst_event_new_eos()) }
        }
        let names = zip(pads, outs).compactMap { $1 == nil ? nil : $0.stream.name }.joined(separator: " and ")
        DebugLog.rtmpreconnectsink.info(element, "\(names) ended before \(location) took data: sent the \(sent) buffers "
                                        + "kept, then the end")
    }

    private func checkDeadlines() {
        let now = Self.monotonic()
        if let endDeadline, now >= endDeadline {
            DebugLog.rtmpreconnectsink.warning(element, "the end of the stream did not reach \(location) within "
                                               + "\(Self.endTimeout) ns; ending anyway")
            finish()
        }
        if let lingerUntil, now >= lingerUntil { finish() }
        if let retryAt, now >= retryAt {
            self.retryAt = nil
            do {
                try connect()
            } catch {
                fail(GST_RESOURCE_ERROR_FAILED, "rtmpreconnectsink cannot connect to \(location)", error.reason)
            }
        }
    }

    /// Starts an attempt with the current properties.
    private func connect() throws(PublishAttemptError) {
        let settings = RtmpReconnectSink.settings(element)
        location = PublishTransport.shown(settings.location)
        let live = gate.withLock { $0.live ?? false }
        // The start refused any other location.
        let transport = PublishTransport(location: settings.location) ?? .rtmp
        let connection = try PublishAttempt(location: settings.location, transport: transport,
                                            outpads: pads.map { ($0.stream, $0.out) }, live: live, inbox: inbox)
        guard connection.start() else { throw PublishAttemptError(reason: "its pipeline would not start") }
        self.connection = connection
        RtmpReconnectSink.of(element).attempt(sink: connection.sink)
        accepted = false
        opened(gate.withLock { $0.open(.connecting) })
        RtmpReconnectSink.publish(element, RC_PUBLISH_CONNECTING, reconnections)
        DebugLog.rtmpreconnectsink.debug(element, "attempt \(attempt): connecting to \(location)")
    }

    private func failed(_ message: UnsafeMutablePointer<GstMessage>, _ connection: PublishAttempt) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        let details = debug.map { String(cString: $0) } ?? ""
        let code = error.flatMap { $0.pointee.domain == gst_resource_error_quark() ? $0.pointee.code : nil }
        g_clear_error(&error)
        g_free(debug)
        let now = Self.monotonic()
        let failure = connection.transport.classify(fromSink: connection.isSink(message.pointee.src), resourceCode: code,
                                                    acceptedFor: connection.answeredAt.map { UInt64(now - $0) })
        close()
        if endDeadline != nil || gate.withLock({ $0.ended.isSuperset(of: $0.streams) }) {
            finish()
            return
        }
        switch failure {
        case .refused:
            fail(GST_RESOURCE_ERROR_NOT_AUTHORIZED, "\(location) refused the stream: \(text)",
                 "the server ended the connection within \(Timebase.milliseconds(ReconnectPolicy.acceptanceTime)) ms of accepting "
                 + "it, as servers do with an unknown application or a refused stream key; not retried. \(details)")
            return
        case .fatal:
            fail(GST_RESOURCE_ERROR_FAILED, "Publishing to \(location) failed: \(text)", details)
            return
        case .unreachable, .lost:
            break
        }
        if accepted {
            PublishMessages.disconnected(element, location: location, reason: text)
            lostAt = now
        }
        accepted = false
        attempt += 1
        let settings = RtmpReconnectSink.settings(element)
        let policy = everAccepted ? settings.policy : settings.connectPolicy
        guard policy.allows(attempt: attempt) else {
            let retried = attempt > 1 ? ", gave up after \(attempt - 1) retries" : ""
            fail(GST_RESOURCE_ERROR_WRITE, "Could not \(everAccepted ? "reconnect" : "connect") to \(location)\(retried): \(text)",
                 "\(everAccepted ? "retries" : "connect-retries")=\(policy.retries ?? -1), "
                 + "\(Timebase.milliseconds(policy.totalDelay ?? 0)) ms of waits in all. \(details)")
            return
        }
        let delay = GstClockTime(policy.delay(beforeAttempt: attempt))
        PublishMessages.reconnecting(element, location: location, attempt: attempt, delay: delay, retries: policy.retries,
                                  reason: text)
        retryAt = now + delay
        RtmpReconnectSink.publish(element, RC_PUBLISH_WAITING, reconnections)
    }

    /// Gives up: posts the error; data is dropped from now on, and EOS still ends the element.
    private func fail(_ code: GstResourceError, _ text: String, _ details: String) {
        close()
        retryAt = nil
        rc_element_error_resource(element, code, text, details)
        RtmpReconnectSink.publish(element, RC_PUBLISH_FAILED, reconnections)
    }

    /// Every stream ended: EOS is the element's, once the server has it (or could not get it).
    private func finish() {
        close()
        retryAt = nil
        endDeadline = nil
        lingerUntil = nil
        let (playing, seqnum) = gate.withLock { gate in
            gate.finished = true
            return (gate.playing, gate.eosSeqnum)
        }
        DebugLog.rtmpreconnectsink.info(element, playing ? "every stream ended" : "every stream ended, EOS waits for PLAYING")
        if playing { RtmpReconnectSink.postEndOfStream(element, seqnum: seqnum) }
    }

    private func close() {
        gate.withLock { gate in
            gate.phase = .closed
            gate.draining = false
        }
        RtmpReconnectSink.of(element).attempt(sink: nil)
        connection?.close()
        connection = nil
    }

    private func findEncoder(minimum: Int) {
        guard let video = pads.first(where: { $0.stream == RC_PUBLISH_VIDEO }) else { return }
        guard let encoder = VideoEncoder(upstreamOf: video.sink) else {
            let known = VideoEncoder.known.keys.sorted().joined(separator: ", ")
            rc_element_warning_resource_settings(element, "adaptive-bitrate: no encoder whose bitrate it can set upstream of the video pad",
                                                 "looked through one-input elements for one of \(known)")
            return
        }
        self.encoder = encoder
        adaptation = BitrateAdaptation(configured: encoder.bitrate, minimum: minimum)
        DebugLog.rtmpreconnectsink.info(element, "adaptive bitrate: \(encoder.name) from \(encoder.bitrate) kbit/s, at least \(minimum)")
    }

    /// Every `BitrateAdaptation.interval` (`srtInterval` over SRT) while the server has the stream.
    private func adaptBitrate() {
        guard var adaptation, let encoder, let connection, accepted else { return }
        let now = Self.monotonic()
        guard now >= nextAdaptation else { return }
        let totals = connection.srtTotals()
        nextAdaptation = now + GstClockTime(totals == nil ? BitrateAdaptation.interval : BitrateAdaptation.srtInterval)
        let decision: BitrateAdaptation.Decision?
        if let totals {
            let link = srtLink.observe(totals)
            DebugLog.rtmpreconnectsink.log(element, "round trip \(totals.roundTripMilliseconds) ms (\(Timebase.milliseconds(link.queued)) ms "
                                           + "over its least), \(totals.packetsLost) of \(totals.packetsSent) packets lost, "
                                           + "\(totals.packetsRetransmitted) retransmitted"
                                           + (link.losing ? ", losing" : ""))
            decision = adaptation.observe(now: UInt64(now), queued: link.queued, sentBytes: link.deliveredBytes, unsentBytes: 0,
                                          losing: link.losing, limits: link.limits)
            recoverPictures(link, now: now)
        } else {
            let queued = connection.queued(), sent = connection.sentBytes(), unsent = connection.unsentBytes(location: location)
            DebugLog.rtmpreconnectsink.log(element, "\(Timebase.milliseconds(queued)) ms queued, \(sent) bytes sent, "
                                           + "\(unsent.map { "\($0) not acknowledged" } ?? "socket not found")")
            decision = adaptation.observe(now: UInt64(now), queued: UInt64(queued), sentBytes: UInt64(sent),
                                          unsentBytes: UInt64(unsent ?? 0))
        }
        if let decision {
            encoder.bitrate = decision.new
            PublishMessages.bitrate(element, location: location, encoder: encoder.name, decision)
        }
        self.adaptation = adaptation
    }

    /// SRT: video held back while the link's queue drains (PublishGate.draining), keyframes
    /// after loss.
    private func recoverPictures(_ link: SrtLinkReading.Observation, now: GstClockTime) {
        switch recovery.observe(link, now: UInt64(now)) {
        case .hold(let time)?:
            gate.withLock { gate in
                gate.draining = true
                gate.drained = 0
            }
            DebugLog.rtmpreconnectsink.info(element, "the link's queue makes packets late (\(Timebase.milliseconds(link.queued)) ms): "
                                            + "holding video back for at least \(Timebase.milliseconds(time)) ms while it drains")
        case .resume(let time)?:
            let held = gate.withLock { gate in
                gate.draining = false
                gate.awaitingKeyframe = true
                return gate.drained
            }
            DebugLog.rtmpreconnectsink.info(element, "video goes on from a keyframe after \(held) frames were held back for \(Timebase.milliseconds(time)) ms")
            requestKeyframe()
        case .keyframe?:
            DebugLog.rtmpreconnectsink.info(element, "the link keeps up again after losing packets")
            requestKeyframe()
        case nil:
            break
        }
    }

    /// The encoder gets its own bitrate back, so a restart starts where the first start did.
    private func restoreBitrate() {
        guard let adaptation, let encoder, adaptation.current != adaptation.configured else { return }
        encoder.bitrate = adaptation.configured
    }

    /// Asks the encoder upstream for a keyframe, so a new connection starts soon.
    private func requestKeyframe() {
        guard let video = pads.first(where: { $0.stream == RC_PUBLISH_VIDEO }) else { return }
        DebugLog.rtmpreconnectsink.debug(element, "asking upstream for a keyframe")
        _ = gst_pad_push_event(video.sink, gst_video_event_new_upstream_force_key_unit(.none, 1, 0))
    }

    private static func monotonic() -> GstClockTime { GstClockTime(g_get_monotonic_time()) * 1000 }
}
