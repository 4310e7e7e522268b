import Glibc

/// The decaying peak of `level`, updated once per interval so that it does not depend on
/// buffer sizes. Works in the power domain (peak²) like level; as in level, a falloff of
/// F dB/s lowers the reported value by F/2 dB per second, because the factor 10^(-F·t/20)
/// is applied to a power. Kept identical so volumemeter is a drop-in for level.
public struct DecayingPeak: Sendable {
    public private(set) var power = 0.0
    private var basePower = 0.0
    private var ageNanoseconds: UInt64 = 0

    public init() {}

    /// Folds in one interval whose highest sample power was `peakPower` and that lasted
    /// `durationNanoseconds`; returns the decay power to report for it.
    public mutating func update(peakPower: Double, durationNanoseconds: UInt64,
                                ttlNanoseconds: UInt64, falloffDecibelsPerSecond: Double) -> Double {
        ageNanoseconds &+= durationNanoseconds
        if ageNanoseconds > ttlNanoseconds {
            let seconds = Double(ageNanoseconds - ttlNanoseconds) / 1e9
            power = basePower * pow(10, -(falloffDecibelsPerSecond * seconds) / 20)
        }
        if peakPower >= power {
            power = peakPower
            basePower = peakPower
            ageNanoseconds = 0
        }
        return power
    }
}
