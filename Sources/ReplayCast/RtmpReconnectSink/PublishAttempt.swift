// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import Synchronization

/// One attempt at publishing: a private pipeline, queue per stream ! muxer ! network sink
/// (PublishTransport), fed from the element's unparented source pads. A fresh muxer per
/// attempt gives the server a new FLV or MPEG-TS stream with its headers; the pipeline's bus
/// goes to the connection thread's inbox, so its errors never reach the application's pipeline.
final class PublishAttempt {
    let pipeline: UnsafeMutablePointer<GstElement>
    let sink: UnsafeMutablePointer<GstElement>
    let transport: PublishTransport
    private var queues: [UnsafeMutablePointer<GstElement>] = []
    private var links: [(out: UnsafeMutablePointer<GstPad>, queuePad: UnsafeMutablePointer<GstPad>)] = []
    /// When the server was first seen answering (nanoseconds, monotonic).
    private(set) var answeredAt: GstClockTime?
    private let bus: AttemptBus
    private var closed = false
    private var socket: ServerSocket?
    private var serverAddresses: Set<String>?

    /// Queues hold this much media; in a live pipeline they drop the oldest beyond it rather
    /// than hold up the streaming threads of the rest of the pipeline.
    static let queueTime: GstClockTime = 5_000_000_000

    /// Throws (with the reason) when a part is missing from the GStreamer installation.
    init(location: String, transport: PublishTransport, outpads: [(RcPublishStream, UnsafeMutablePointer<GstPad>)],
         live: Bool, inbox: OpaquePointer) throws(PublishAttemptError) {
        let branches = outpads.map { stream, _ in
            "queue name=\(stream.name) max-size-buffers=0 max-size-bytes=0 max-size-time=\(Self.queueTime) "
                + "leaky=\(live ? "downstream" : "no") ! \(transport.branch(stream))mux.\(transport.muxPad(stream)) "
        }
        let description = branches.joined() + transport.tail
        self.transport = transport
        var error: UnsafeMutablePointer<GError>?
        let built = gst_parse_launch(description, &error)
        let reason = error.map { String(cString: $0.pointee.message) }
        g_clear_error(&error)
        guard let pipeline = built, reason == nil else {
            if let built { gst_object_unref(built) }
            throw PublishAttemptError(reason: "cannot build \(description): \(reason ?? "unknown")")
        }
        self.pipeline = pipeline
        let bin = rc_bin(pipeline)
        sink = gst_bin_get_by_name(bin, "sink")!
        gst_util_set_object_arg(rc_gobject(sink), transport.locationProperty, location)
        bus = AttemptBus(inbox: inbox, sink: sink)
        let pipelineBus = gst_element_get_bus(pipeline)!
        // Every message of the attempt goes to the connection thread, which alone acts on them.
        gst_bus_set_sync_handler(pipelineBus, { _, message, bus in
            Unmanaged<AttemptBus>.fromOpaque(bus!).takeUnretainedValue().forward(message!)
            return GST_BUS_DROP
        }, Unmanaged.passRetained(bus).toOpaque(), { Unmanaged<AttemptBus>.fromOpaque($0!).release() })
        gst_object_unref(pipelineBus)
        for (stream, out) in outpads {
            let queue = gst_bin_get_by_name(bin, stream.name)!
            self.queues.append(queue)
            // The element's pad may be released (and unreffed) while the attempt still runs.
            links.append((gst_object_ref(out).assumingMemoryBound(to: GstPad.self), gst_element_get_static_pad(queue, "sink")!))
        }
    }

    /// Starts connecting (rtmp2sink connects on its own thread) and links the element's pads
    /// in; FALSE when the pipeline would not start.
    func start() -> Bool {
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else { return false }
        for link in links { _ = gst_pad_link(link.out, link.queuePad) }
        return true
    }

    /// Drops data in the queues from now on instead of waiting (once the pipeline is known live).
    func makeLeaky() { for queue in queues { gst_util_set_object_arg(rc_gobject(queue), "leaky", "downstream") } }

    /// Lifts the limit of `stream`'s queue: a push into it never waits (nor, leaky, drops).
    func unbound(_ stream: RcPublishStream) {
        guard let queue = gst_bin_get_by_name(rc_bin(pipeline), stream.name) else { return }
        gst_util_set_object_arg(rc_gobject(queue), "max-size-time", "0")
        gst_object_unref(queue)
    }

    /// Whether the server has answered yet, from the sink's counters (PublishTransport).
    func pollAnswered(now: GstClockTime) -> Bool {
        if answeredAt != nil { return true }
        guard statsCount(transport.answeredField) > 0 else { return false }
        answeredAt = now
        return true
    }

    /// The most media waiting in a stream's queue, in nanoseconds: more than a frame only
    /// while the sink cannot write (RTMP: the socket's buffer is full).
    func queued() -> GstClockTime {
        queues.map { GstClockTime(ObjectProperties.uint64($0, "current-level-time")) }.max() ?? 0
    }

    /// Bytes written to the TCP socket that the server has not acknowledged; nil until the
    /// socket is found, and over SRT (libsrt keeps its own send buffer).
    func unsentBytes(location: String) -> Int? {
        guard transport == .rtmp else { return nil }
        if socket == nil {
            // Resolved once per attempt: the search for the socket repeats until it is found.
            let addresses = serverAddresses ?? ServerSocket.addresses(of: location) ?? []
            serverAddresses = addresses
            socket = ServerSocket(peerIn: addresses)
        }
        return socket?.unsentBytes()
    }

    /// Bytes the sink has sent.
    func sentBytes() -> guint64 { statsCount(transport.sentField) }

    /// srtsink's running totals for adaptive-bitrate; nil over RTMP.
    func srtTotals() -> SrtLinkReading.Totals? {
        guard transport == .srt else { return nil }
        return SinkStatistics.read(sink) { stats in
            guard let stats else { return nil }
            var sent: gint64 = 0, lost: gint = 0, retransmitted: gint = 0, bytes: guint64 = 0, roundTrip = 0.0, latency: gint = 0
            _ = gst_structure_get_int64(stats, "packets-sent", &sent)
            _ = gst_structure_get_int(stats, "packets-sent-lost", &lost)
            _ = gst_structure_get_int(stats, "packets-retransmitted", &retransmitted)
            _ = gst_structure_get_uint64(stats, "bytes-sent", &bytes)
            _ = gst_structure_get_double(stats, "rtt-ms", &roundTrip)
            _ = gst_structure_get_int(stats, "negotiated-latency-ms", &latency)
            return SrtLinkReading.Totals(packetsSent: UInt64(max(0, sent)), packetsLost: UInt64(max(0, lost)),
                                         packetsRetransmitted: UInt64(max(0, retransmitted)), bytesSent: UInt64(bytes),
                                         roundTripMilliseconds: roundTrip, latencyMilliseconds: Int(latency))
        }
    }

    private func statsCount(_ field: String) -> guint64 {
        var count: guint64 = 0
        SinkStatistics.read(sink) { stats in
            if let stats { _ = gst_structure_get_uint64(stats, field, &count) }
        }
        return count
    }

    func isSink(_ object: UnsafeMutablePointer<GstObject>?) -> Bool {
        UnsafeMutableRawPointer(object) == UnsafeMutableRawPointer(sink)
    }

    /// Unlinks the element's pads and stops the pipeline: a push under way returns FLUSHING.
    /// The bus stops forwarding to the inbox: messages left there hold the pipeline, and the
    /// forwarding held the inbox, a cycle that leaked both when a stop came mid-attempt.
    func close() {
        guard !closed else { return }
        closed = true
        socket = nil
        awaitConnectOutcome()
        gst_element_set_state(pipeline, GST_STATE_NULL)
        let bus = gst_element_get_bus(pipeline)!
        gst_bus_set_sync_handler(bus, nil, nil, nil)
        gst_object_unref(bus)
        for link in links {
            gst_pad_unlink(link.out, link.queuePad)
            gst_object_unref(link.queuePad)
            gst_object_unref(link.out)
        }
        links.removeAll()
    }

    /// rtmp2sink (GStreamer 1.22) stopped while its connect is under way can leave the
    /// connect's last callback on its private main context after its thread has stopped
    /// iterating it: the GTask it made for the connect then holds the sink for ever (found
    /// by the leaks tracer: an rtmp2sink, its pad and its GstTask alive at exit after a
    /// stop 1 ms into an attempt). So the pipeline stops once the connect has an outcome:
    /// the sink has a connection (its stats count bytes) or has posted its error. A
    /// server that never answers holds the stop for at most the connect timeout plus 1 s.
    /// srtsink needs no wait (`PublishTransport.stopAwaitsConnect`).
    private func awaitConnectOutcome() {
        guard let timeout = transport.stopAwaitsConnect(sink) else { return }
        var state = GST_STATE_NULL
        gst_element_get_state(sink, &state, nil, 0)
        guard state.rawValue >= GST_STATE_PAUSED.rawValue else { return }
        let bound = GstClockTime(timeout) + 1
        let deadline = Self.monotonic() + bound * GstClockTime(Timebase.nanosecondsPerSecond)
        while !bus.sinkFailed.load(ordering: .acquiring) && !pollAnswered(now: Self.monotonic()) {
            guard Self.monotonic() < deadline else {
                DebugLog.rtmpreconnectsink.warning(sink, "stopping an attempt whose connect has no outcome after \(bound) s")
                return
            }
            g_usleep(1000)
        }
    }

    private static func monotonic() -> GstClockTime { GstClockTime(g_get_monotonic_time()) * 1000 }

    deinit {
        close()
        for queue in queues { gst_object_unref(queue) }
        gst_object_unref(sink)
        gst_object_unref(pipeline)
    }
}

/// The attempt's bus sync handler's state: where messages go, and whether rtmp2sink has
/// posted an error (its connect then has an outcome). Written on the posting threads, read
/// by the connection thread.
private final class AttemptBus {
    private let inbox: OpaquePointer
    private let sink: UnsafeMutableRawPointer
    let sinkFailed = Atomic<Bool>(false)

    init(inbox: OpaquePointer, sink: UnsafeMutablePointer<GstElement>) {
        self.inbox = g_async_queue_ref(inbox)
        self.sink = UnsafeMutableRawPointer(sink)
    }

    func forward(_ message: UnsafeMutablePointer<GstMessage>) {
        if message.pointee.type == GST_MESSAGE_ERROR && UnsafeMutableRawPointer(message.pointee.src) == sink {
            sinkFailed.store(true, ordering: .releasing)
        }
        g_async_queue_push(inbox, message)
    }

    deinit { g_async_queue_unref(inbox) }
}

struct PublishAttemptError: Error {
    let reason: String
}
