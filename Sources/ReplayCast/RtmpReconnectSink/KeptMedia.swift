// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// With while-disconnected=keep: what arrived while there was no connection, per stream, to
/// send first once the next connection is accepted. Video is kept from a keyframe and trimmed
/// by whole keyframe intervals so that what is sent always decodes; audio older than the
/// oldest kept video goes too. Holds a reference to every buffer it keeps.
///
/// Times are running times: streams are compared with each other, and each has a segment of
/// its own (x264enc's starts at 1000 hours, an audio encoder's at 0).
struct KeptMedia: ~Copyable {
    struct Kept {
        let buffer: UnsafeMutablePointer<GstBuffer>
        /// Running time of its DTS when set (decoding order), else of its PTS.
        let time: GstClockTime?
    }

    private var streams: [[Kept]] = [[], []]

    var isEmpty: Bool { streams.allSatisfy(\.isEmpty) }
    func count(_ stream: Int) -> Int { streams[stream].count }
    var videoStartsWithKeyframe: Bool { streams[0].first.map { !Self.isDelta($0.buffer) } ?? false }

    /// Keeps `buffer` (taking the reference) and drops what falls out of `duration` before
    /// the newest time; returns how many buffers were dropped.
    mutating func keep(_ buffer: UnsafeMutablePointer<GstBuffer>, at time: GstClockTime?, stream: Int,
                       duration: GstClockTime, hasVideo: Bool) -> Int {
        if stream == 0 && streams[0].isEmpty && Self.isDelta(buffer) {
            gst_buffer_unref(buffer)
            return 1
        }
        streams[stream].append(Kept(buffer: buffer, time: time))
        var dropped = 0
        if let newest = time, newest >= duration {
            let limit = newest - duration
            dropped += trimVideo(before: limit)
        }
        // Audio that came before any video keyframe waits for one (an audio encoder's first
        // output often arrives before the video encoder's, for the same instant), within
        // `duration`; the first kept keyframe then trims what is older than it.
        if let audioLimit = hasVideo ? streams[0].first?.time : nil {
            dropped += trimAudio(before: audioLimit)
        } else if let newest = time, newest >= duration {
            dropped += trimAudio(before: newest - duration)
        }
        return dropped
    }

    /// Hands over what was kept for `stream`, oldest first (the caller owns the references).
    mutating func take(_ stream: Int) -> [UnsafeMutablePointer<GstBuffer>] {
        takeWithTimes(stream).map(\.buffer)
    }

    mutating func takeWithTimes(_ stream: Int) -> [Kept] {
        defer { streams[stream].removeAll() }
        return streams[stream]
    }

    mutating func clear() { _ = dropAll(0); _ = dropAll(1) }

    deinit { for stream in streams { stream.forEach { gst_buffer_unref($0.buffer) } } }

    /// Drops whole keyframe intervals from the front while the oldest starts before `limit`
    /// (an interval longer than the whole duration stays: video is only cut at keyframes).
    private mutating func trimVideo(before limit: GstClockTime) -> Int {
        var dropped = 0
        while let start = streams[0].first?.time, start < limit,
              let next = streams[0].dropFirst().firstIndex(where: { !Self.isDelta($0.buffer) }) {
            streams[0][..<next].forEach { gst_buffer_unref($0.buffer) }
            streams[0].removeFirst(next)
            dropped += next
        }
        return dropped
    }

    private mutating func trimAudio(before limit: GstClockTime) -> Int {
        let old = streams[1].prefix { ($0.time ?? limit) < limit }.count
        streams[1][..<old].forEach { gst_buffer_unref($0.buffer) }
        streams[1].removeFirst(old)
        return old
    }

    private mutating func dropAll(_ stream: Int) -> Int {
        defer { streams[stream].forEach { gst_buffer_unref($0.buffer) }; streams[stream].removeAll() }
        return streams[stream].count
    }

    static func isDelta(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Bool {
        buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0
    }

    /// The running time of the buffer's DTS when set (decoding order), else of its PTS, in
    /// `segment`; nil without a time, or outside the segment.
    static func time(_ buffer: UnsafeMutablePointer<GstBuffer>, in segment: UnsafePointer<GstSegment>) -> GstClockTime? {
        let t = buffer.pointee.dts.isValid ? buffer.pointee.dts : buffer.pointee.pts
        guard t.isValid else { return nil }
        let running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, t)
        return running.isValid ? running : nil
    }
}
