// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import Testing

@Suite struct DecibelsAndDecayTests {
    @Test func floorIsFiniteForSilenceAndUnderflow() {
        #expect(Decibels.fromPower(0) == Decibels.floor)
        #expect(Decibels.fromAmplitude(0) == Decibels.floor)
        #expect(Decibels.fromPower(1e-30) == Decibels.floor)
        #expect(Decibels.fromPower(-1) == Decibels.floor)
        #expect(abs(Decibels.fromPower(0.5) - -3.0103) < 1e-4)
        #expect(abs(Decibels.fromAmplitude(0.1) - -20) < 1e-12)
    }

    /// level's rule: hold for the TTL, then fall by `falloff`/2 dB per second (the factor
    /// 10^(-falloff·t/20) applied to a power), restarting from any louder peak.
    @Test func decayHoldsThenFalls() {
        var decay = DecayingPeak()
        let tenth: UInt64 = 100_000_000
        func block(_ peak: Double) -> Double {
            decay.fold(peakPower: peak, age: tenth, ttlNanoseconds: 3 * tenth, falloffDecibelsPerSecond: 10)
            return decay.power
        }
        #expect(block(1.0) == 1.0)
        for _ in 0..<3 { #expect(block(0.01) == 1.0) }
        #expect(abs(10 * log10(block(0.01)) - -0.5) < 1e-12)
        #expect(block(0.9) == 0.9)
    }

    /// A message reports the decay as it stands and then lifts it to the interval's peak if
    /// it fell below, without restarting its age (as level does).
    @Test func reportLiftsTheDecayToTheIntervalPeak() {
        var decay = DecayingPeak()
        let second: UInt64 = 1_000_000_000
        decay.fold(peakPower: 1.0, age: 0, ttlNanoseconds: 0, falloffDecibelsPerSecond: 20)
        decay.fold(peakPower: 0.05, age: second, ttlNanoseconds: 0, falloffDecibelsPerSecond: 20)
        #expect(abs(decay.power - 0.1) < 1e-12)
        #expect(abs(decay.report(intervalPeakPower: 0.5) - 0.1) < 1e-12)
        #expect(decay.power == 0.5)
        // The base and the age were kept: one more second falls from the old peak, 1.0.
        decay.fold(peakPower: 0, age: second, ttlNanoseconds: 0, falloffDecibelsPerSecond: 20)
        #expect(abs(decay.power - 0.01) < 1e-12)
    }
}
