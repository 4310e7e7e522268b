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
        #expect(decay.update(peakPower: 1.0, durationNanoseconds: tenth, ttlNanoseconds: 3 * tenth, falloffDecibelsPerSecond: 10) == 1.0)
        for _ in 0..<3 {
            #expect(decay.update(peakPower: 0.01, durationNanoseconds: tenth, ttlNanoseconds: 3 * tenth, falloffDecibelsPerSecond: 10) == 1.0)
        }
        let after = decay.update(peakPower: 0.01, durationNanoseconds: tenth, ttlNanoseconds: 3 * tenth, falloffDecibelsPerSecond: 10)
        #expect(abs(10 * log10(after) - -0.5) < 1e-12)
        let louder = decay.update(peakPower: 0.9, durationNanoseconds: tenth, ttlNanoseconds: 3 * tenth, falloffDecibelsPerSecond: 10)
        #expect(louder == 0.9)
    }
}
