// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import MediaKernels
import ReplayKitModel

/// Measures how long after capture a broadcast's frames reach a receiver, from the UTC
/// capture time replaykitsrc (barcode-time=utc) writes in every frame's barcode strip.
///
/// - A stream (rtmp://, srt://, udp://, any URI GStreamer decodes live) is decoded as it
///   arrives; each decoded frame's latency is the real-time clock less its capture time. A
///   stream that fails (not published yet, dropped) is asked for again, as a player does.
/// - An HLS playlist on local disk (a path or file:// URI ending in .m3u8) is polled every 100 ms as a player
///   polls it; each segment that appears is a latency: the time it was first listed less the
///   capture time of its first frame (decoded from the segment), which is the earliest a
///   player could show that frame. The segment's EXT-X-PROGRAM-DATE-TIME gives a second
///   figure, the latency a player computes from the playlist alone.
public enum LatencyCheck {
    public enum Kind: Sendable, Equatable {
        case stream
        case hls
    }

    public static func kind(of output: String) -> Kind {
        let path = output.split(separator: "?", maxSplits: 1).first.map(String.init) ?? output
        return path.lowercased().hasSuffix(".m3u8") ? .hls : .stream
    }

    /// A segment that appeared in an HLS playlist.
    public struct SegmentArrival: Sendable {
        public var uri: String
        public var duration: Double
        /// Listed, less its first frame's capture time, in seconds.
        public var latency: Double
        /// Listed, less its EXT-X-PROGRAM-DATE-TIME; nil when the playlist dates no segment.
        public var programDateLatency: Double?
    }

    public enum Event: Sendable {
        /// Second `index` (from 1) of reading a stream: its frames' latencies, nil for none.
        case second(output: String, index: Int, latencies: LatencySummary?)
        case segment(output: String, SegmentArrival)
    }

    public struct Findings: Sendable {
        public var output: String
        public var kind: Kind
        /// Every frame's latency (streams) or every new segment's (HLS); nil when none was read.
        public var latencies: LatencySummary?
        /// Frames or segments read, after the time skipped.
        public var read: Int
        /// Frames without a readable strip (streams) or segments without one (HLS).
        public var unreadable: Int
        /// Frames whose strip carries broadcast time: replaykitsrc ran without barcode-time=utc.
        public var broadcastTime: Int
        /// Streams: the longest stretch of capture time without a frame read, in seconds (a
        /// frame's duration when none was lost): the pictures a viewer missed, whether the
        /// sender dropped them, the network lost them, the receiver could not decode them or
        /// their strips were damaged. Nil for HLS, and for fewer than two frames.
        public var longestGap: Double?
        /// Streams: the longest step in stream time between two pictures decoded one after the
        /// other, in seconds, whether or not their strips could be read: the pictures a viewer
        /// did not get at all. Pictures damaged by data lost on the way are decoded but often
        /// unreadable, so `longestGap` can be longer. Nil for HLS, and for fewer than two pictures.
        public var longestPictureGap: Double?
    }

    /// The largest step between capture times (UTC nanoseconds) in their order, in seconds.
    public static func longestGap(between captures: [UInt64]) -> Double? {
        guard captures.count > 1 else { return nil }
        let sorted = captures.sorted()
        return Timebase.seconds(zip(sorted, sorted.dropFirst()).map { $1 - $0 }.max()!)
    }

    /// `<output>: <reason>`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `output` for `duration`, reporting as it goes through `events`. What is read in
    /// the first `skip` is reported but left out of the findings: a player's start-up.
    public static func measure(_ output: String, for duration: Duration, skip: Duration = .zero,
                               events: @escaping @Sendable (Event) -> Void) async throws(Failure) -> Findings {
        gst_init(nil, nil)
        switch kind(of: output) {
        case .stream: return try await StreamLatency(output: output).measure(for: duration, skip: skip, events: events)
        case .hls:
            guard !output.contains("://") || output.hasPrefix("file://") else {
                throw Failure(description: "\(output): an HLS playlist is read from local disk (a path or file:// URI)")
            }
            return try await HLSLatency(playlist: output).measure(for: duration, skip: skip, events: events)
        }
    }

    static func uri(_ output: String) -> String {
        if output.contains("://") { return output }
        guard let converted = gst_filename_to_uri(output, nil) else { return output }
        defer { g_free(converted) }
        return String(cString: converted)
    }
}
