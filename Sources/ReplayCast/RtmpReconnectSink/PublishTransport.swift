// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// What carries the streams to the server, chosen by the location's scheme: FLV over RTMP
/// (`flvmux ! rtmp2sink`), or MPEG-TS over SRT in caller mode (`mpegtsmux ! srtsink`), the
/// way HaishinKit, Moblin and OBS publish SRT. The reconnection around either is the
/// element's; srtsink's own (`auto-reconnect`) is off, since while it retries its writes
/// block the streaming thread and a receiver gone for good holds the pipeline for ever.
public enum PublishTransport: Sendable {
    case rtmp
    case srt

    public init?(location: String) {
        if location.hasPrefix("rtmp://") || location.hasPrefix("rtmps://") {
            self = .rtmp
        } else if location.hasPrefix("srt://") {
            self = .srt
        } else {
            return nil
        }
    }

    /// Where a location publishes: the host and port (RTMP's 1935 and RTMPS's 443 when it
    /// names none; SRT has no default), and what follows them (application and stream, or
    /// the query).
    public static func server(_ location: String) -> (host: String, port: Int, rest: Substring)? {
        guard let transport = PublishTransport(location: location), let scheme = location.firstRange(of: "://") else { return nil }
        let address = location[scheme.upperBound...]
        let authority = address.prefix { $0 != "/" && $0 != "?" }
        let rest = address[authority.endIndex...]
        if let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) {
            return (String(authority[..<colon]), port, rest)
        }
        guard transport == .rtmp else { return nil }
        return (String(authority), location.hasPrefix("rtmps://") ? 443 : 1935, rest)
    }

    /// The location as messages, errors, logs and status screens give it: an SRT passphrase
    /// masked, and query fields without a value left out.
    public static func shown(_ location: String) -> String {
        guard location.hasPrefix("srt://"), let mark = location.firstIndex(of: "?") else { return location }
        let fields = location[location.index(after: mark)...].split(separator: "&").compactMap { field -> String? in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return String(field) }
            guard !parts[1].isEmpty else { return nil }
            return parts[0] == "passphrase" ? "passphrase=***" : String(field)
        }
        let base = String(location[..<mark])
        return fields.isEmpty ? base : base + "?" + fields.joined(separator: "&")
    }

    /// What follows a stream's queue up to the muxer. mpegtsmux takes H.264 only as a byte
    /// stream, with the SPS and PPS before every keyframe so a receiver can start at any.
    func branch(_ stream: RcRtmpStream) -> String {
        guard self == .srt, stream == RC_RTMP_VIDEO else { return "" }
        return "h264parse config-interval=-1 ! video/x-h264,stream-format=byte-stream,alignment=au ! "
    }

    /// The muxer's pad for a stream: flvmux names them, mpegtsmux numbers its request pads.
    func muxPad(_ stream: RcRtmpStream) -> String { self == .rtmp ? stream.name : "" }

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
