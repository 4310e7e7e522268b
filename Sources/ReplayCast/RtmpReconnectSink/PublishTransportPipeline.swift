// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport

/// How each transport is built and read: its muxer and sink, the fields of their statistics,
/// and what a stop and an error mean for it.
extension PublishTransport {
    /// What follows a stream's queue up to the muxer. mpegtsmux takes H.264 only as a byte
    /// stream, with the SPS and PPS before every keyframe so a receiver can start at any.
    func branch(_ stream: RcPublishStream) -> String {
        guard self == .srt, stream == RC_PUBLISH_VIDEO else { return "" }
        return "h264parse config-interval=-1 ! video/x-h264,stream-format=byte-stream,alignment=au ! "
    }

    /// The muxer's pad for a stream: flvmux names them, mpegtsmux numbers its request pads.
    func muxPad(_ stream: RcPublishStream) -> String { self == .rtmp ? stream.name : "" }

    /// The muxer, named `mux`, and the sink, named `sink`, whose location property is set apart.
    /// mpegtsmux in 7-packet (1316-byte) units: one SRT payload each.
    var tail: String {
        switch self {
        case .rtmp: "flvmux name=mux streamable=true ! rtmp2sink name=sink sync=false async=false"
        case .srt: "mpegtsmux name=mux alignment=7 ! srtsink name=sink sync=false async=false auto-reconnect=false"
        }
    }

    var locationProperty: String { self == .rtmp ? "location" : "uri" }

    /// The field of the sink's `stats` that counts bytes from the server (RTMP: its handshake
    /// went through) or bytes libsrt sent (SRT: a packet got through the connection).
    var answeredField: String { self == .rtmp ? "in-bytes-total" : "bytes-sent-total" }
    var sentField: String { self == .rtmp ? "out-bytes-total" : "bytes-sent-total" }

    /// Whether a stop waits for a connect under way to have an outcome, and then for at most
    /// how long it may take, in seconds: rtmp2sink's `timeout`. nil for srtsink, whose connect
    /// waits in its render, which its unlock interrupts (waiting held every stop before a
    /// receiver answered for up to 4 s).
    func stopAwaitsConnect(_ sink: UnsafeMutablePointer<GstElement>) -> UInt64? {
        self == .rtmp ? UInt64(ObjectProperties.uint(sink, "timeout")) : nil
    }

    /// How long to hold the connection open after the end of the stream reached the sink.
    /// An SRT receiver holds each packet for the negotiated latency and drops what it still
    /// holds when the caller goes: closing at once cuts the last frames, so twice the latency.
    /// rtmp2sink has flushed its socket by its EOS.
    func linger(_ sink: UnsafeMutablePointer<GstElement>) -> GstClockTime {
        guard self == .srt else { return 0 }
        var latency: gint = 0
        SinkStatistics.read(sink) { stats in
            if let stats { _ = gst_structure_get_int(stats, "negotiated-latency-ms", &latency) }
        }
        if latency <= 0 { latency = ObjectProperties.int(sink, "latency") }
        return GstClockTime(Timebase.nanoseconds(.milliseconds(2 * Int(latency))))
    }

    /// What the sink's error means for the next step. srtsink reports every failure as a
    /// write that failed: before a packet got through, the receiver was not reached; after,
    /// the connection was lost, or refused when that came within the acceptance time.
    func classify(fromSink: Bool, resourceCode: Int32?, acceptedFor: UInt64?) -> ConnectionFailure {
        guard self == .srt, fromSink, resourceCode != nil else {
            return ConnectionFailure.classify(fromSink: fromSink, resourceCode: resourceCode, acceptedFor: acceptedFor)
        }
        guard let acceptedFor else { return .unreachable }
        return acceptedFor >= ReconnectPolicy.acceptanceTime ? .lost : .refused
    }
}
