// SPDX-License-Identifier: LGPL-2.1-or-later

/// The live media playlist of one rendition with Low-Latency HLS parts (RFC 8216bis, as
/// draft-pantos-hls-rfc8216bis-22 has it): what segments and parts exist, in order, and its
/// text, whole or as a delta update. Segments older than the window leave it, as `hlssink2
/// max-files` removes them.
public struct MediaPlaylist: Sendable {
    public struct Part: Sendable, Equatable {
        public var uri: String
        public var duration: Double
        /// Starts with a sync sample: a player can start decoding here.
        public var independent: Bool

        public init(uri: String, duration: Double, independent: Bool) {
            self.uri = uri
            self.duration = duration
            self.independent = independent
        }
    }

    public struct Segment: Sendable, Equatable {
        public var sequence: UInt64
        public var uri: String
        public var parts: [Part]
        /// Wall-clock time of its first sample, seconds since 1970 (UTC).
        public var programDateTime: Double
        public var afterDiscontinuity: Bool

        public var duration: Double { parts.reduce(0) { $0 + $1.duration } }
    }

    public struct Settings: Sendable {
        /// `EXT-X-TARGETDURATION`, whole seconds: no segment's duration rounds to more.
        public var targetDuration: Int
        /// `PART-TARGET`, seconds: no part is longer.
        public var partTarget: Double
        /// The init segment's URI (`EXT-X-MAP`).
        public var initURI: String
        /// Complete segments kept in the playlist; older ones are removed.
        public var window: Int

        public init(targetDuration: Int, partTarget: Double, initURI: String, window: Int) {
            precondition(targetDuration >= 1 && partTarget > 0 && partTarget <= Double(targetDuration) && window >= 1)
            self.targetDuration = targetDuration
            self.partTarget = partTarget
            self.initURI = initURI
            self.window = window
        }

        /// `PART-HOLD-BACK`: three part targets, which 4.4.3.8 recommends (two at least).
        public var partHoldBack: Double { 3 * partTarget }
        /// `CAN-SKIP-UNTIL`: six target durations, the least 4.4.3.8 allows.
        public var skipUntil: Double { 6 * Double(targetDuration) }
    }

    /// Another rendition's newest part, for `EXT-X-RENDITION-REPORT`.
    public struct RenditionReport: Sendable, Equatable {
        public var uri: String
        public var lastSequence: UInt64
        public var lastPart: Int

        public init(uri: String, lastSequence: UInt64, lastPart: Int) {
            self.uri = uri
            self.lastSequence = lastSequence
            self.lastPart = lastPart
        }
    }

    public let settings: Settings
    public private(set) var segments: [Segment] = []
    /// The segment being written: its parts so far. Nil before the first part and after the end.
    public private(set) var open: Segment?
    /// `EXT-X-DISCONTINUITY-SEQUENCE`: discontinuities that left the window with their segments.
    public private(set) var discontinuitySequence: UInt64 = 0
    /// The URI the next part will have, named by `EXT-X-PRELOAD-HINT`.
    public private(set) var nextPartURI: String?
    public private(set) var ended = false
    private var nextSequence: UInt64 = 0
    /// Segments out of the window whose files are still kept.
    private var departed: [Segment] = []

    public init(settings: Settings) { self.settings = settings }

    /// The media sequence number of the first segment listed.
    public var firstSequence: UInt64 { segments.first?.sequence ?? open?.sequence ?? nextSequence }

    /// The newest part: its segment's sequence number and its index there.
    public var lastPart: (sequence: UInt64, index: Int)? {
        if let open, !open.parts.isEmpty { return (open.sequence, open.parts.count - 1) }
        return segments.last.map { ($0.sequence, $0.parts.count - 1) }
    }

    /// The segment `sequence` would start, and the URI of its first part, for the hint.
    public var nextSegmentSequence: UInt64 { open.map { $0.sequence + 1 } ?? nextSequence }

    /// Adds a written part to the open segment, or starts a segment with it.
    public mutating func append(_ part: Part, startingSegmentAt programDateTime: Double? = nil, afterDiscontinuity: Bool = false,
                                segmentURI: String, nextPartURI: String) {
        precondition(!ended, "the playlist has ended")
        precondition(part.duration <= settings.partTarget + 1e-9, "a part of \(part.duration) s is longer than PART-TARGET \(settings.partTarget) s")
        if open == nil {
            open = Segment(sequence: nextSequence, uri: segmentURI, parts: [], programDateTime: programDateTime ?? 0,
                           afterDiscontinuity: afterDiscontinuity)
            nextSequence += 1
        }
        open!.parts.append(part)
        self.nextPartURI = nextPartURI
    }

    /// Ends the open segment, whose file is now written whole. Returns the segments whose
    /// files may go: a segment that left the window stays on disk while `window` more leave
    /// after it, so a player that read a playlist listing it can still fetch it and its parts
    /// (6.2.2: a segment stays available for the longest playlist that held it).
    @discardableResult
    public mutating func closeSegment() -> [Segment] {
        guard let segment = open else { return [] }
        precondition(segment.duration.rounded() <= Double(settings.targetDuration),
                     "a segment of \(segment.duration) s is longer than the target duration \(settings.targetDuration) s")
        segments.append(segment)
        open = nil
        let left = segments.dropLast(settings.window)
        segments.removeFirst(left.count)
        discontinuitySequence += UInt64(left.filter(\.afterDiscontinuity).count)
        departed += left
        let expired = Array(departed.dropLast(settings.window))
        departed.removeFirst(expired.count)
        return expired
    }

    /// Ends the playlist: the open segment closes and `EXT-X-ENDLIST` is written. Every file
    /// stays.
    public mutating func end() {
        closeSegment()
        ended = true
        nextPartURI = nil
    }
}
