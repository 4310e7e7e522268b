// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct TimebaseTests {
    @Test func roundingOfAThirdAndTwoThirds() {
        #expect(Timebase.nanoseconds(1, atRate: 3) == 333_333_333)
        #expect(Timebase.nanoseconds(1, atRate: 3, .nearest) == 333_333_333)
        #expect(Timebase.nanoseconds(1, atRate: 3, .up) == 333_333_334)
        #expect(Timebase.nanoseconds(2, atRate: 3, .nearest) == 666_666_667)
        #expect(Timebase.scale(5, 1, 2, .nearest) == 3, "a half rounds up")
        #expect(Timebase.scale(6, 1, 2, .up) == 3, "nothing left: nothing to round")
    }

    @Test func audioAndVideoUnits() {
        #expect(Timebase.count(inNanoseconds: 600 * Timebase.nanosecondsPerSecond, atRate: 48000) == 28_800_000)
        #expect(Timebase.nanoseconds(1024, atRate: 44100, .nearest) == 23_219_955)
        #expect(Timebase.count(inNanoseconds: 33_333_333, atRate: 30, .up) == 1)
        #expect(Timebase.count(inNanoseconds: 33_333_334, atRate: 30, .up) == 2)
    }

    @Test func productsAreTakenInFullWidth() {
        // 2⁶³ · 10⁹ overflows 64 bits on the way; the quotient fits.
        #expect(Timebase.scale(1 << 63, Timebase.nanosecondsPerSecond, 2 * Timebase.nanosecondsPerSecond) == 1 << 62)
        #expect(Timebase.scale(.max, 3, 2) == .max, "too large for 64 bits")
        #expect(Timebase.scale(.max, 1, 1, .up) == .max)
    }

    @Test func durations() {
        #expect(Timebase.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(Timebase.nanoseconds(.nanoseconds(7)) == 7)
        #expect(Timebase.nanoseconds(.seconds(-1)) == 0)
    }

    @Test func secondsAndMilliseconds() {
        #expect(Timebase.seconds(UInt64(1_500_000_000)) == 1.5)
        #expect(Timebase.seconds(Int64(-250_000_000)) == -0.25, "a difference keeps its sign")
        #expect(Timebase.seconds(33_333_333.0) == 0.033333333)
        #expect(Timebase.milliseconds(UInt64(1_999_999)) == 1, "whole milliseconds, rounded down")
        #expect(Timebase.milliseconds(UInt(125_000_000)) == 125)
    }
}
