// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// The decaying peak of `level`, step for step, so volumemeter is a drop-in for level on any
/// signal. It works in the power domain (peak²) like level; a falloff of F dB/s lowers the
/// reported value by F/2 dB per second, because level applies 10^(-F·t/20) to a power.
///
/// level folds in every block it processes (a buffer, cut where an interval ends): the
/// block's age increment is the time of the frames left in the buffer when the block starts
/// (level's own accounting, kept so both agree on buffers that straddle an interval), and
/// a message reports the decay as it stands, then lifts it to the interval's peak if it had
/// fallen below.
public struct DecayingPeak: Sendable {
    public private(set) var power = 0.0
    private var basePower = 0.0
    private var ageNanoseconds: UInt64 = 0

    public init() {}

    /// One block whose highest sample power was `peakPower` (0 for a GAP), aged by `age`.
    public mutating func fold(peakPower: Double, age: UInt64, ttlNanoseconds: UInt64, falloffDecibelsPerSecond: Double) {
        ageNanoseconds &+= age
        if ageNanoseconds > ttlNanoseconds {
            let seconds = Timebase.seconds(ageNanoseconds - ttlNanoseconds)
            power = basePower * pow(10, -(falloffDecibelsPerSecond * seconds) / 20)
        }
        if peakPower >= power {
            power = peakPower
            basePower = peakPower
            ageNanoseconds = 0
        }
    }

    /// The decay to report for an interval whose highest sample power was `intervalPeakPower`.
    public mutating func report(intervalPeakPower: Double) -> Double {
        let reported = power
        if power < intervalPeakPower { power = intervalPeakPower }
        return reported
    }
}
