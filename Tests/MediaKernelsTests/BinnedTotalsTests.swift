// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import MediaKernels
import Testing

@Suite struct BinnedTotalsTests {
    /// Every bin's totals below it and every rank's bin against plain per-bin arrays, for
    /// sizes around powers of two (where the tree's ranges end).
    @Test(arguments: [1, 2, 7, 8, 9, 100, 1000])
    func matchesPlainBins(bins: Int) {
        var totals = BinnedTotals(bins: bins)
        var counts = [Int](repeating: 0, count: bins), sums = [Double](repeating: 0, count: bins)
        var state: UInt32 = 99
        for _ in 0..<(3 * bins + 5) {
            state = state &* 1_664_525 &+ 1_013_904_223
            // Clustered like loudness values: most in a few bins, some anywhere.
            let bin = state % 4 == 0 ? Int(state >> 8) % bins : min(bins - 1, bins / 2 + Int(state >> 28))
            let value = Double(state >> 16) / 65536
            totals.add(bin: bin, value: value)
            counts[bin] += 1
            sums[bin] += value
        }
        #expect(totals.totalCount == 3 * bins + 5)
        var checked = 0
        for bin in 0...bins {
            let below = totals.below(bin)
            #expect(below.count == counts[..<bin].reduce(0, +), "bins \(bins), below \(bin)")
            #expect(abs(below.sum - sums[..<bin].reduce(0, +)) <= 1e-9 * totals.totalSum, "bins \(bins), below \(bin)")
            checked += 1
        }
        for rank in 1...totals.totalCount {
            var running = 0
            let expected = counts.firstIndex { running += $0; return running >= rank }
            #expect(totals.bin(reachingCount: rank) == expected, "bins \(bins), rank \(rank)")
            checked += 1
        }
        #expect(checked == bins + 1 + 3 * bins + 5)
    }

    @Test func resetEmptiesEveryBin() {
        var totals = BinnedTotals(bins: 50)
        for bin in [0, 17, 49, 49] { totals.add(bin: bin, value: 2) }
        #expect(totals.below(50) == (count: 4, sum: 8.0))
        totals.reset()
        #expect(totals.totalCount == 0 && totals.totalSum == 0)
        #expect(totals.below(50) == (count: 0, sum: 0.0))
        totals.add(bin: 3, value: 1)
        #expect(totals.bin(reachingCount: 1) == 3)
    }
}
