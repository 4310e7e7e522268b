// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// With while-disconnected=keep: what arrived while there was no connection, per stream, to
/// send first once the next connection is accepted. Video is kept from a keyframe and trimmed
/// by whole keyframe intervals so that what is sent always decodes; audio older than the
/// oldest kept video goes too. Holds a reference to every buffer it keeps.
struct KeptMedia: ~Copyable {
    private var streams: [[UnsafeMutablePointer<GstBuffer>]] = [[], []]

    var isEmpty: Bool { streams.allSatisfy(\.isEmpty) }
    func count(_ stream: Int) -> Int { streams[stream].count }
    var videoStartsWithKeyframe: Bool { streams[0].first.map { !Self.isDelta($0) } ?? false }

    /// Keeps `buffer` (taking the reference) and drops what falls out of `duration` before
    /// the newest timestamp; returns how many buffers were dropped.
    mutating func keep(_ buffer: UnsafeMutablePointer<GstBuffer>, stream: Int, duration: GstClockTime, hasVideo: Bool) -> Int {
        if stream == 0 && streams[0].isEmpty && Self.isDelta(buffer) {
            gst_buffer_unref(buffer)
            return 1
        }
        streams[stream].append(buffer)
        var dropped = 0
        if let newest = Self.time(buffer), newest >= duration {
            let limit = newest - duration
            dropped += trimVideo(before: limit)
        }
        let audioLimit: GstClockTime? = hasVideo ? streams[0].first.flatMap(Self.time) : nil
        if hasVideo && streams[0].isEmpty {
            dropped += dropAll(1)
        } else if let audioLimit {
            dropped += trimAudio(before: audioLimit)
        } else if let newest = Self.time(buffer), newest >= duration {
            dropped += trimAudio(before: newest - duration)
        }
        return dropped
    }

    /// Hands over what was kept for `stream`, oldest first (the caller owns the references).
    mutating func take(_ stream: Int) -> [UnsafeMutablePointer<GstBuffer>] {
        defer { streams[stream].removeAll() }
        return streams[stream]
    }

    mutating func clear() { _ = dropAll(0); _ = dropAll(1) }

    deinit { for stream in streams { stream.forEach { gst_buffer_unref($0) } } }

    /// Drops whole keyframe intervals from the front while the oldest starts before `limit`
    /// (an interval longer than the whole duration stays: video is only cut at keyframes).
    private mutating func trimVideo(before limit: GstClockTime) -> Int {
        var dropped = 0
        while let start = streams[0].first.flatMap(Self.time), start < limit,
              let next = streams[0].dropFirst().firstIndex(where: { !Self.isDelta($0) }) {
            streams[0][..<next].forEach { gst_buffer_unref($0) }
            streams[0].removeFirst(next)
            dropped += next
        }
        return dropped
    }

    private mutating func trimAudio(before limit: GstClockTime) -> Int {
        let old = streams[1].prefix { (Self.time($0) ?? limit) < limit }.count
        streams[1][..<old].forEach { gst_buffer_unref($0) }
        streams[1].removeFirst(old)
        return old
    }

    private mutating func dropAll(_ stream: Int) -> Int {
        defer { streams[stream].forEach { gst_buffer_unref($0) }; streams[stream].removeAll() }
        return streams[stream].count
    }

    static func isDelta(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Bool {
        buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0
    }

    /// DTS when set (decoding order), else PTS.
    static func time(_ buffer: UnsafeMutablePointer<GstBuffer>) -> GstClockTime? {
        let t = buffer.pointee.dts.isValid ? buffer.pointee.dts : buffer.pointee.pts
        return t.isValid ? t : nil
    }
}
