// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// EBU Tech 3342 loudness range (LRA) from short-term loudness values sampled at 10 Hz:
/// values above the absolute gate (−70 LUFS) are kept in 0.1 LU bins (a tenth of the
/// tolerance Tech 3342 allows) with their power sum, the relative gate sits 20 LU below the
/// power mean of those, and LRA is the distance between the 10th and 95th percentiles of the
/// values above it (ranks as Tech 3342's reference: round((n − 1)·p/100 + 1)). Allocated
/// once; adding a value and reading LRA cost O(log bins).
public struct LoudnessRange {
    static let absoluteGate = -70.0
    static let relativeGate = -20.0
    static let top = 30.0
    static let binsPerLU = 10.0

    var histogram = BinnedTotals(bins: Int((top - absoluteGate) * binsPerLU))

    public init() {}

    public mutating func reset() {
        histogram.reset()
    }

    /// One short-term measurement, as the mean (weighted) square it came from.
    public mutating func add(meanSquare: Double) {
        let loudness = LoudnessMeter.loudness(meanSquare: meanSquare)
        guard loudness >= Self.absoluteGate else { return }
        histogram.add(bin: min(Int((loudness - Self.absoluteGate) * Self.binsPerLU), histogram.bins - 1),
                      value: meanSquare)
    }

    /// LRA in LU; 0 until a value has passed the gates.
    public var value: Double {
        let total = histogram.totalCount
        guard total > 0 else { return 0 }
        let gate = LoudnessMeter.loudness(meanSquare: histogram.totalSum / Double(total)) + Self.relativeGate
        let firstBin = max(0, Int(((gate - Self.absoluteGate) * Self.binsPerLU).rounded(.up)))
        let gatedOut = histogram.below(firstBin).count
        let n = total - gatedOut
        guard n > 0 else { return 0 }
        return percentile(95, of: n, above: gatedOut) - percentile(10, of: n, above: gatedOut)
    }

    /// The loudness (bin centre) of the value ranked round((n − 1)·p/100 + 1) from the
    /// bottom of the n values above the `gatedOut` lowest.
    private func percentile(_ p: Double, of n: Int, above gatedOut: Int) -> Double {
        let rank = Int((Double(n - 1) * p / 100 + 1).rounded())
        let bin = histogram.bin(reachingCount: gatedOut + rank)
        return Self.absoluteGate + (Double(bin) + 0.5) / Self.binsPerLU
    }
}
