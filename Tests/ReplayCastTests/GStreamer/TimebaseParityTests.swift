// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels
import Testing

/// Timebase against GStreamer's own scaling (gst_util_uint64_scale, _round, _ceil) on the
/// same seeded values: rates of audio and video, times up to days, and values near 2⁶⁴.
@Suite struct TimebaseParityTests {
    @Test func scalesAsGStreamerDoes() {
        var random = Seeded(state: 2026)
        let rates: [UInt64] = [1, 24, 25, 30, 60, 8000, 44100, 48000, 96000, 1_000_000_000]
        var compared = 0
        for _ in 0..<10_000 {
            let value = random.word() >> UInt64(random.next(64))
            let numerator = random.next(2) == 0 ? rates[random.next(rates.count)] : random.word() >> UInt64(random.next(64))
            let denominator = max(1, random.next(2) == 0 ? rates[random.next(rates.count)] : random.word() >> UInt64(random.next(64)))
            let (v, n, d) = (guint64(value), guint64(numerator), guint64(denominator))
            #expect(Timebase.scale(value, numerator, denominator) == UInt64(gst_util_uint64_scale(v, n, d)))
            #expect(Timebase.scale(value, numerator, denominator, .nearest) == UInt64(gst_util_uint64_scale_round(v, n, d)))
            #expect(Timebase.scale(value, numerator, denominator, .up) == UInt64(gst_util_uint64_scale_ceil(v, n, d)))
            compared += 3
        }
        #expect(compared == 30_000)
    }
}

private extension Seeded {
    /// 64 seeded bits.
    mutating func word() -> UInt64 {
        UInt64(next(1 << 31)) << 33 | UInt64(next(1 << 31)) << 2 | UInt64(next(4))
    }
}
