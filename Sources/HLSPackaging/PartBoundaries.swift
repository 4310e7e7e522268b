// SPDX-License-Identifier: LGPL-2.1-or-later

/// Where a track's parts and segments end, decided one sample ahead on the decode timeline.
/// - A part ends before the sample that would take it past `partTarget`, so no part is longer
///   than the target the playlist advertises (RFC 8216bis, 4.4.4.9: a part's duration must
///   not exceed `PART-TARGET`). A sample longer than the target alone is not cut: the caller
///   clamps sample durations to the part target first.
/// - A segment ends before the first sync sample at or past the next multiple of
///   `segmentTarget` from the track's start (half a sample early counts, as live timestamps
///   jitter), so segments start with a sync sample while the encoder keeps its keyframes on
///   time, and the segments of an audio track, whose every sample is a sync sample, end
///   within half a frame of the video's.
/// - A segment also ends before the sample that would take it past `segmentLimit`, sync or
///   not: no `EXTINF` may round to more than the target duration (4.4.3.1).
/// - A gap in decode time longer than a part ends the segment; the next one starts after a
///   discontinuity.
public struct PartBoundaries: Sendable {
    public enum Boundary: Sendable, Equatable {
        /// The sample goes into the open part.
        case none
        /// The open part ends; the sample starts the next part of the same segment.
        case part
        /// The open part and segment end; the sample starts the next segment.
        case segment(afterGap: Bool)
    }

    public let partTarget: UInt64
    public let segmentTarget: UInt64
    public let segmentLimit: UInt64
    private var partStart: UInt64?
    private var segmentStart: UInt64 = 0
    private var segmentDue: UInt64 = 0
    private var end: UInt64 = 0

    /// Durations in the track's timescale, `partTarget` ≤ `segmentTarget` ≤ `segmentLimit`.
    public init(partTarget: UInt64, segmentTarget: UInt64, segmentLimit: UInt64) {
        precondition(partTarget > 0 && partTarget <= segmentTarget && segmentTarget <= segmentLimit,
                     "part target \(partTarget) ≤ segment target \(segmentTarget) ≤ limit \(segmentLimit)")
        self.partTarget = partTarget
        self.segmentTarget = segmentTarget
        self.segmentLimit = segmentLimit
    }

    /// Where a sample falls, and takes it in.
    public mutating func place(decodeTime: UInt64, duration: UInt64, isSync: Bool) -> Boundary {
        defer { end = decodeTime + duration }
        guard let start = partStart else {
            segmentDue = decodeTime
            begin(segmentAt: decodeTime, duration: duration)
            return .none
        }
        if decodeTime > end + partTarget {
            begin(segmentAt: decodeTime, duration: duration)
            return .segment(afterGap: true)
        }
        if (isSync && decodeTime + duration / 2 >= segmentDue) || decodeTime + duration > segmentStart + segmentLimit {
            begin(segmentAt: decodeTime, duration: duration)
            return .segment(afterGap: false)
        }
        if decodeTime + duration > start + partTarget {
            partStart = decodeTime
            return .part
        }
        return .none
    }

    private mutating func begin(segmentAt time: UInt64, duration: UInt64) {
        partStart = time
        segmentStart = time
        while segmentDue <= time + duration / 2 { segmentDue += segmentTarget }
    }
}
