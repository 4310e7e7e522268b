// SPDX-License-Identifier: LGPL-2.1-or-later
/// Per-bin counts and value sums of a histogram, with the totals below any bin and the bin
/// where a running count reaches a rank in O(log bins) (a Fenwick tree). Integrated loudness
/// and loudness range read gated sums and percentiles for every message; walking 10,000
/// bins to do it cost more than metering the audio. Allocated once.
struct BinnedTotals {
    let bins: Int
    /// Fenwick arrays, 1-based: entry i covers bins (i − lowbit(i)) ..< i.
    private var counts: [Int]
    private var sums: [Double]
    /// The highest power of two ≤ bins: where the rank search starts.
    private let topStep: Int
    private(set) var totalCount = 0
    private(set) var totalSum = 0.0

    init(bins: Int) {
        precondition(bins > 0)
        self.bins = bins
        counts = Array(repeating: 0, count: bins + 1)
        sums = Array(repeating: 0, count: bins + 1)
        var step = 1
        while step * 2 <= bins { step *= 2 }
        topStep = step
    }

    mutating func reset() {
        guard totalCount > 0 else { return }
        for i in counts.indices {
            counts[i] = 0
            sums[i] = 0
        }
        totalCount = 0
        totalSum = 0
    }

    mutating func add(bin: Int, value: Double) {
        var i = bin + 1
        while i <= bins {
            counts[i] += 1
            sums[i] += value
            i += i & -i
        }
        totalCount += 1
        totalSum += value
    }

    /// Count and value sum of bins 0 ..< bin.
    func below(_ bin: Int) -> (count: Int, sum: Double) {
        var count = 0, sum = 0.0
        var i = min(bin, bins)
        while i > 0 {
            count += counts[i]
            sum += sums[i]
            i -= i & -i
        }
        return (count, sum)
    }

    /// The lowest bin b whose count together with every bin below it is at least `rank`
    /// (1 ≤ rank ≤ totalCount).
    func bin(reachingCount rank: Int) -> Int {
        var position = 0, remaining = rank
        var step = topStep
        while step > 0 {
            let next = position + step
            if next <= bins && counts[next] < remaining {
                position = next
                remaining -= counts[next]
            }
            step /= 2
        }
        return position
    }
}
