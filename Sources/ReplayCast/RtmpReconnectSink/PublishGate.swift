// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// What the streaming threads and the connection thread share: whether data goes to a
/// connection now, and what happens to it otherwise. Behind a `Locked` in RtmpReconnectSink;
/// pushing happens after the lock is released.
struct PublishGate: ~Copyable {
    enum Phase: Equatable {
        /// No connection to push to: before start, between attempts, after failing or ending.
        case closed
        /// An attempt is under way; with while-disconnected=drop data already goes to it (its
        /// queues hold it until the server answers).
        case connecting
        case connected
    }

    var phase = Phase.closed
    var keep = false
    var keepDuration: GstClockTime = 0
    var streams: Set<Int> = []
    /// Video waits for a keyframe at the start of each connection (audio needs none).
    var awaitingKeyframe = true
    /// nil until the first buffer shows whether the pipeline is live.
    var live: Bool?
    var ended: Set<Int> = []
    var eosSeqnum: guint32?
    /// The element's EOS is due (every stream ended and the server has it, or cannot get
    /// it). A bin forgets its sinks' EOS messages when it goes to PAUSED, so, as GstBaseSink
    /// does, the EOS is posted only in PLAYING and again on every return to PLAYING.
    var finished = false
    /// Set by the state changes PAUSED → PLAYING and back.
    var playing = false
    var kept = KeptMedia()
    /// Each stream's segment, for the running times of what is kept.
    var segments = [GstSegment](repeating: GstSegment(), count: 2)
    /// Buffers dropped since the last connection was lost (or since start).
    var dropped: GstClockTime = 0
    /// adaptive-bitrate over SRT: the link's queue makes what enters it now arrive after the
    /// receiver's latency, which drops it. Video held back here instead adds nothing to the
    /// queue while it drains, and the next keyframe reaches the receiver in time.
    var draining = false
    /// Video buffers dropped while draining, since the last drain began.
    var drained = 0

    var pushing: Bool { phase == .connected || (phase == .connecting && !keep) }
    var hasVideo: Bool { streams.contains(0) }

    enum Admission {
        /// Push what was kept for the stream (oldest first, usually nothing), then the buffer:
        /// apart, so the common case builds no array per buffer.
        case push(kept: [UnsafeMutablePointer<GstBuffer>], buffer: UnsafeMutablePointer<GstBuffer>)
        case held
        /// Video held back while an SRT link drains: a GAP event with this PTS and duration
        /// goes in its place, so the muxer sends audio on without waiting for video. Audio
        /// keeps the receiver's loss reports and the round trip moving, so the retransmissions
        /// they ask for happen during the hold rather than after it, in front of the keyframe.
        case gap(pts: GstClockTime, duration: GstClockTime)
    }

    /// Decides what becomes of `buffer` (whose reference it takes): pushed now, after what
    /// was kept for its stream, or kept or dropped.
    mutating func admit(_ buffer: UnsafeMutablePointer<GstBuffer>, stream: Int) -> Admission {
        guard pushing, !ended.contains(stream) else { return hold(buffer, stream: stream) }
        if draining && stream == 0 {
            let (pts, duration) = (buffer.pointee.pts, buffer.pointee.duration)
            gst_buffer_unref(buffer)
            drained += 1
            // A GAP event needs a time: a frame without one leaves nothing in its place.
            return pts == GstClockTime.max ? .held : .gap(pts: pts, duration: duration)
        }
        if stream == 0 && awaitingKeyframe {
            guard !KeptMedia.isDelta(buffer) else { return hold(buffer, stream: stream) }
            awaitingKeyframe = false
        }
        return .push(kept: kept.take(stream), buffer: buffer)
    }

    private mutating func hold(_ buffer: UnsafeMutablePointer<GstBuffer>, stream: Int) -> Admission {
        if keep && phase != .connected && !ended.contains(stream) {
            let time = withUnsafePointer(to: &segments[stream]) { KeptMedia.time(buffer, in: $0) }
            dropped += GstClockTime(kept.keep(buffer, at: time, stream: stream, duration: keepDuration, hasVideo: hasVideo))
        } else {
            gst_buffer_unref(buffer)
            dropped += 1
        }
        return .held
    }

    /// What opening the gate leaves to the connection thread.
    struct Opening {
        /// Video waits for a keyframe: the encoder is to be asked for one.
        var awaitsKeyframe = false
        /// By stream: for each that ended while the gate was shut, what was kept of it, oldest
        /// first (the caller owns the references); nil for the others. Its own thread pushes
        /// nothing more, so this and its end go from the connection thread.
        var ended: [[KeptMedia.Kept]?] = [nil, nil]
    }

    /// The connection moves on to `phase`. When that makes data flow to it, video must start
    /// at a keyframe, unless kept video does, and the ends held back go to it (`end`).
    mutating func open(_ phase: Phase) -> Opening {
        let wasPushing = pushing
        self.phase = phase
        guard pushing && !wasPushing else { return Opening() }
        awaitingKeyframe = !(keep && kept.videoStartsWithKeyframe)
        var opening = Opening(awaitsKeyframe: awaitingKeyframe)
        for stream in ended where streams.contains(stream) { opening.ended[stream] = kept.takeWithTimes(stream) }
        return opening
    }

    /// `stream` ended. While data flows, what was kept of it goes before its end, both from
    /// its own thread (`kept`: the caller owns the references). While the gate is shut the end
    /// is held back, with what was kept, until it opens (`open`).
    mutating func end(_ stream: Int, seqnum: guint32) -> (pushing: Bool, allEnded: Bool, kept: [UnsafeMutablePointer<GstBuffer>]) {
        ended.insert(stream)
        let all = ended.isSuperset(of: streams)
        if all { eosSeqnum = seqnum }
        return (pushing, all, pushing ? kept.take(stream) : [])
    }

    mutating func reset(streams: Set<Int>, keep: Bool, keepDuration: GstClockTime) {
        phase = .closed
        self.streams = streams
        self.keep = keep
        self.keepDuration = keepDuration
        awaitingKeyframe = true
        live = nil
        ended = []
        eosSeqnum = nil
        finished = false
        draining = false
        kept.clear()
        for stream in segments.indices { gst_segment_init(&segments[stream], GST_FORMAT_TIME) }
        dropped = 0
    }
}
