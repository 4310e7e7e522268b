import Glibc

/// EBU Tech 3342 loudness range (LRA) from short-term loudness values sampled at 10 Hz:
/// values above the absolute gate (−70 LUFS) are kept in 0.1 LU bins (reading LRA walks
/// the bins above the gate for every message, so finer bins would cost more than the
/// metering: 0.1 LU is a tenth of the tolerance Tech 3342 allows) with their power sum,
/// the relative gate sits 20 LU below the power mean of those, and LRA is the distance
/// between the 10th and 95th percentiles of the values above it (ranks as Tech 3342's
/// reference: round((n − 1)·p/100 + 1)). Allocated once; adding a value is O(1).
public struct LoudnessRange {
    static let absoluteGate = -70.0
    static let relativeGate = -20.0
    static let top = 30.0
    static let binsPerLU = 10.0

    var counts: [Int]
    var meanSquareSum = 0.0
    var total = 0
    var topBin = -1

    public init() {
        counts = Array(repeating: 0, count: Int((Self.top - Self.absoluteGate) * Self.binsPerLU))
    }

    public mutating func reset() {
        for bin in 0...max(topBin, 0) { counts[bin] = 0 }
        meanSquareSum = 0
        total = 0
        topBin = -1
    }

    /// One short-term measurement, as the mean (weighted) square it came from.
    public mutating func add(meanSquare: Double) {
        let loudness = LoudnessMeter.loudness(meanSquare: meanSquare)
        guard loudness >= Self.absoluteGate else { return }
        let bin = min(Int((loudness - Self.absoluteGate) * Self.binsPerLU), counts.count - 1)
        counts[bin] += 1
        topBin = max(topBin, bin)
        meanSquareSum += meanSquare
        total += 1
    }

    /// LRA in LU; 0 until a value has passed the gates.
    public var value: Double {
        guard total > 0 else { return 0 }
        let gate = LoudnessMeter.loudness(meanSquare: meanSquareSum / Double(total)) + Self.relativeGate
        let firstBin = max(0, Int(((gate - Self.absoluteGate) * Self.binsPerLU).rounded(.up)))
        guard firstBin <= topBin else { return 0 }
        let n = counts[firstBin...topBin].reduce(0, +)
        guard n > 0 else { return 0 }
        let low = percentile(10, of: n, from: firstBin)
        let high = percentile(95, of: n, from: firstBin)
        return high - low
    }

    /// The loudness (bin centre) of the value ranked round((n − 1)·p/100 + 1) from the bottom.
    private func percentile(_ p: Double, of n: Int, from firstBin: Int) -> Double {
        let rank = Int((Double(n - 1) * p / 100 + 1).rounded())
        var seen = 0
        for bin in firstBin...topBin {
            seen += counts[bin]
            if seen >= rank { return Self.absoluteGate + (Double(bin) + 0.5) / Self.binsPerLU }
        }
        return Self.absoluteGate + (Double(topBin) + 0.5) / Self.binsPerLU
    }
}
