// SPDX-License-Identifier: LGPL-2.1-or-later

/// adaptive-bitrate's view of an SRT connection, from srtsink's running totals. libsrt in
/// live mode sends what it is given at once, so no media waits in front of it to be
/// watched, as it does in front of rtmp2sink. A link that falls behind shows instead at its
/// bottleneck: first as a queue there (the round trip grows above the least seen on the
/// connection), then as loss (packets the receiver reports missing).
struct SrtLinkReading {
    /// srtsink's `stats`: running totals since the connection was made, and the smoothed
    /// round trip.
    struct Totals: Equatable {
        /// Retransmissions included.
        var packetsSent: UInt64
        var packetsLost: UInt64
        /// For the debug log: what the losses cost the link.
        var packetsRetransmitted: UInt64 = 0
        var bytesSent: UInt64
        var roundTripMilliseconds: Double
        /// The latency both ends agreed on.
        var latencyMilliseconds: Int
    }

    struct Observation: Equatable {
        /// How much longer than its least the round trip is, in nanoseconds: time media
        /// waits in a queue on the way.
        var queued: UInt64
        /// Bytes sent less those of packets reported lost: what got through.
        var deliveredBytes: UInt64
        /// At least `losingShare` of the packets sent since the last observation, and
        /// `leastLost`, were reported lost.
        var losing: Bool
        /// What `queued` means on this connection.
        var limits: BitrateAdaptation.QueueLimits
    }

    /// An SRT packet of broadcast MPEG-TS on the wire: 7 TS packets (mpegtsmux
    /// alignment=7), SRT, UDP and IPv4 headers, as libsrt counts bytes.
    static let packetBytes: UInt64 = 7 * 188 + 16 + 8 + 20
    /// Loss that is the link's doing rather than chance: this share of the packets sent since
    /// the last look, and at least `leastLost` of them (one lost in a keyframe's burst is
    /// a share of 3 % in a tenth of a second).
    static let losingShare = 0.02
    static let leastLost: UInt64 = 3

    private var leastRoundTrip: Double?
    private var last: Totals?

    /// A new connection: its totals count from 0, and its path may be another.
    mutating func restart() {
        leastRoundTrip = nil
        last = nil
    }

    mutating func observe(_ totals: Totals) -> Observation {
        let roundTrip = totals.roundTripMilliseconds
        let least = min(leastRoundTrip ?? roundTrip, roundTrip)
        leastRoundTrip = least
        var losing = false
        if let last, totals.packetsSent > last.packetsSent, totals.packetsLost >= last.packetsLost {
            let lost = totals.packetsLost - last.packetsLost
            losing = lost >= Self.leastLost && Double(lost) / Double(totals.packetsSent - last.packetsSent) >= Self.losingShare
        }
        last = totals
        let lostBytes = totals.packetsLost * Self.packetBytes
        return Observation(queued: UInt64(max(0, roundTrip - least) * 1_000_000),
                           deliveredBytes: totals.bytesSent - min(totals.bytesSent, lostBytes), losing: losing,
                           limits: .srt(latencyMilliseconds: totals.latencyMilliseconds))
    }
}
