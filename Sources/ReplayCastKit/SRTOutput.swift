// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// An SRT output of a broadcast (an `srtsink` in caller mode, or an rtmpreconnectsink with an
/// srt:// location, which has one inside) as it is now: its connection's statistics as libsrt
/// counts them (srtsink's `stats`), read at the moment of the call.
public struct SRTOutput: Sendable, Equatable {
    /// The element's name in the pipeline.
    public var element: String
    /// Where it sends, `srt://host:port`.
    public var uri: String
    /// Packets sent, first transmissions and retransmissions alike; 0 until connected.
    public var packetsSent: Int
    /// Packets the receiver reported lost, each then retransmitted or dropped.
    public var packetsLost: Int
    public var packetsRetransmitted: Int
    /// Packets given up on: too late for the receiver's latency.
    public var packetsDropped: Int
    public var bytesSent: Int
    /// Round-trip time to the receiver, in milliseconds.
    public var roundTripMilliseconds: Double
    /// What the connection carries now, in megabits per second.
    public var sendRateMbps: Double
    /// The latency both ends agreed on, in milliseconds; 0 until connected.
    public var latencyMilliseconds: Int

    /// Reads srtsink's statistics structure (`application/x-srt-statistics`, fields of one
    /// connection: caller mode).
    init(element: String, uri: String, stats: UnsafePointer<GstStructure>?) {
        func int(_ field: String) -> Int {
            guard let stats else { return 0 }
            var int64: gint64 = 0, int32: gint = 0, uint64: guint64 = 0
            if gst_structure_get_int64(stats, field, &int64) != 0 { return Int(int64) }
            if gst_structure_get_int(stats, field, &int32) != 0 { return Int(int32) }
            if gst_structure_get_uint64(stats, field, &uint64) != 0 { return Int(clamping: uint64) }
            return 0
        }
        func double(_ field: String) -> Double {
            var value = 0.0
            guard let stats, gst_structure_get_double(stats, field, &value) != 0 else { return 0 }
            return value
        }
        self.element = element
        self.uri = uri
        packetsSent = int("packets-sent")
        packetsLost = int("packets-sent-lost")
        packetsRetransmitted = int("packets-retransmitted")
        packetsDropped = int("packets-sent-dropped")
        bytesSent = int("bytes-sent")
        roundTripMilliseconds = double("rtt-ms")
        sendRateMbps = double("send-rate-mbps")
        latencyMilliseconds = int("negotiated-latency-ms")
    }
}

/// An SRT sink of a broadcast, found once when the broadcast is made, with its name and URI
/// (which cannot change while it plays); its statistics are read whenever asked.
struct SRTSink {
    let sink: UnsafeMutablePointer<GstElement>
    let element: String
    let uri: String
    /// An rtmpreconnectsink: it reconnects, and gives up on a receiver never reached, itself.
    let reconnects: Bool

    init(_ sink: UnsafeMutablePointer<GstElement>, reconnects: Bool) {
        self.sink = sink
        element = String(cString: rc_object_name(sink))
        uri = PublishTransport.shown(ObjectProperties.string(sink, reconnects ? "location" : "uri") ?? "")
        self.reconnects = reconnects
    }

    /// The pipeline's srtsinks, then its rtmpreconnectsinks that publish SRT.
    static func sinks(in pipeline: UnsafeMutablePointer<GstElement>) -> [SRTSink] {
        BinElements.made(by: "srtsink", in: pipeline).map { SRTSink($0, reconnects: false) }
            + BinElements.made(by: "rtmpreconnectsink", in: pipeline).map { SRTSink($0, reconnects: true) }
            .filter { PublishTransport(location: $0.uri) == .srt }
    }

    /// Its connection's statistics now.
    var output: SRTOutput {
        SinkStatistics.read(sink) { SRTOutput(element: element, uri: uri, stats: $0) }
    }
}
