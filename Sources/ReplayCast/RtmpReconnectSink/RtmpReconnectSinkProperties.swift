// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// rtmp2sink's names and meanings for location and stats; the reconnection properties are our own.
extension RtmpReconnectSink {
    static let whileDisconnected = EnumType("GstRtmpReconnectSinkWhileDisconnected", [
        .init(RC_WHILE_DISCONNECTED_DROP,
              "Drop what arrives while disconnected; the next connection starts at a new keyframe", "drop"),
        .init(RC_WHILE_DISCONNECTED_KEEP, "Keep up to buffer-duration of it (whole keyframe intervals) and send it "
              + "first after reconnecting", "keep"),
    ])

    static let connection = EnumType("GstRtmpReconnectSinkConnection", [
        .init(RC_PUBLISH_STOPPED, "Not streaming", "stopped"),
        .init(RC_PUBLISH_CONNECTING, "Connecting", "connecting"),
        .init(RC_PUBLISH_CONNECTED, "Connected: the server accepted the stream", "connected"),
        .init(RC_PUBLISH_WAITING, "Disconnected, waiting to retry", "waiting"),
        .init(RC_PUBLISH_FAILED, "Failed: refused by the server or out of retries", "failed"),
    ])

    static let properties = PropertyTable(\RcRtmpReconnectSink.settings, [
        .string(\.location, "location", "Location",
                "URL to publish to: RTMP as rtmp2sink takes it, rtmp[s]://host[:port]/application/stream (FLV), or SRT "
                + "as srtsink takes it in caller mode, srt://host:port[?latency=MS&streamid=ID&passphrase=SECRET] (MPEG-TS)",
                default: nil, .mutableReady),
        .int(\.retries, "retries", "Retries",
             "Reconnection attempts after a connection is lost before posting an error (-1 = for ever)", -1...Int32.max,
             default: -1, .mutablePlaying),
        .int(\.connect_retries, "connect-retries", "Connect retries",
             "Attempts after the first connection could not be made before posting an error (-1 = for ever)",
             -1...Int32.max, default: 3, .mutablePlaying),
        .uint64(\.retry_delay, "retry-delay", "Retry delay", "Wait before the first reconnection attempt (in nanoseconds)",
                0...UInt64.max, default: Timebase.nanosecondsPerSecond, .mutablePlaying),
        .uint64(\.retry_max_delay, "retry-max-delay", "Retry max delay",
                "Longest wait between reconnection attempts (in nanoseconds)", 0...UInt64.max,
                default: Timebase.nanoseconds(.seconds(30)), .mutablePlaying),
        .double(\.backoff_factor, "backoff-factor", "Backoff factor",
                "Each wait is the previous one times this, up to retry-max-delay", 1...100, default: 2, .mutablePlaying),
        .enumeration(\.while_disconnected, "while-disconnected", "While disconnected",
                     "What to do with data that arrives while there is no connection", whileDisconnected,
                     default: RC_WHILE_DISCONNECTED_DROP, .mutablePlaying),
        .uint64(\.buffer_duration, "buffer-duration", "Buffer duration",
                "With while-disconnected=keep: the most media kept to send after reconnecting (in nanoseconds)",
                0...UInt64.max, default: Timebase.nanoseconds(.seconds(10)), .mutablePlaying),
        .boolean(\.adaptive_bitrate, "adaptive-bitrate", "Adaptive bitrate",
                 "Lower the video encoder's bitrate when the connection falls behind and raise it again, up to the "
                 + "bitrate it started with, when it keeps up (the first x264enc, x265enc, openh264enc, vah264enc, "
                 + "vaapih264enc or nvh264enc upstream of the video pad)", default: false, .mutableReady),
        .uint(\.min_bitrate, "min-bitrate", "Minimum bitrate",
              "With adaptive-bitrate: the lowest video bitrate to set (in kbit/s)", 50...100_000, default: 300,
              .mutableReady),
        .enumeration(\.connection, "connection", "Connection", "State of the connection", connection,
                     default: RC_PUBLISH_STOPPED, .status),
        .uint(\.reconnections, "reconnections", "Reconnections",
              "Connections made again after one was lost, since the element started", 0...UInt32.max, default: 0,
              .status),
        .structure("stats", "Statistics",
                   "The current connection's statistics, as its rtmp2sink or srtsink gives them (between attempts, and "
                   + "while an SRT attempt connects, the last connection's; null before the first)",
                   get: { RtmpReconnectSink.of($0.assumingMemoryBound(to: RcRtmpReconnectSink.self)).stats() }),
    ])

    /// The connection's state and reconnection count, as the status properties show them.
    static func publish(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ connection: RcPublishConnection,
                        _ reconnections: guint) {
        properties.publish(element, \.connection, connection)
        properties.publish(element, \.reconnections, reconnections)
    }
}

@_cdecl("rc_rtmpreconnectsink_properties")
func rtmpReconnectSinkProperties() -> UnsafeRawPointer { RtmpReconnectSink.properties.opaque }
