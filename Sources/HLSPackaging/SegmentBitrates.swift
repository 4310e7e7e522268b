// SPDX-License-Identifier: LGPL-2.1-or-later

/// A rendition's segment bit rates as RFC 8216bis defines them (4.1): the average over all
/// its segments, and the peak, the highest rate of any run of consecutive segments lasting
/// from half a target duration to one and a half plus half a second, bytes with container
/// overhead over `EXTINF` durations.
public struct SegmentBitrates: Sendable {
    public let targetDuration: Double
    private var segments: [(bytes: Int, duration: Double)] = []
    private var totalBytes = 0
    private var totalDuration = 0.0
    public private(set) var peak = 0

    public init(targetDuration: Int) { self.targetDuration = Double(targetDuration) }

    /// Bits per second over every segment so far.
    public var average: Int { totalDuration > 0 ? Int((Double(totalBytes) * 8 / totalDuration).rounded()) : 0 }

    public mutating func add(bytes: Int, duration: Double) {
        segments.append((bytes, duration))
        totalBytes += bytes
        totalDuration += duration
        // Runs that end with this segment. A segment that ends a run past the upper bound is
        // in no later run either, so it and those before it go.
        var runBytes = 0, runDuration = 0.0
        var first = segments.count
        for segment in segments.reversed() {
            runBytes += segment.bytes
            runDuration += segment.duration
            if runDuration > 1.5 * targetDuration + 0.5 { break }
            first -= 1
            if runDuration >= 0.5 * targetDuration { peak = max(peak, Int((Double(runBytes) * 8 / runDuration).rounded())) }
        }
        segments.removeFirst(first)
    }
}
