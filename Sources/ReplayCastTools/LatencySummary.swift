// SPDX-License-Identifier: LGPL-2.1-or-later

/// Latencies in seconds, summed up: how many, the median, the 95th percentile (nearest rank:
/// the smallest value at least 95 % of the values do not exceed) and the largest.
public struct LatencySummary: Sendable, Equatable {
    public var count: Int
    public var median: Double
    public var p95: Double
    public var maximum: Double

    /// Nil for no values.
    public init?(_ latencies: [Double]) {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        count = sorted.count
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        p95 = sorted[Self.rank(0.95, of: sorted.count) - 1]
        maximum = sorted[sorted.count - 1]
    }

    /// ⌈p · n⌉, at least 1: the 1-based position of the p-th percentile by nearest rank.
    static func rank(_ fraction: Double, of count: Int) -> Int {
        max(1, Int((fraction * Double(count)).rounded(.up)))
    }
}
