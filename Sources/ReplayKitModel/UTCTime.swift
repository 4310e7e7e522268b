// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import MediaKernels

/// Nanoseconds since 1970 on the real-time clock: what replaykitsrc's barcode-time=utc
/// stamps on a frame and what a latency reader compares it with. On one machine both read
/// the same clock; across machines the figure is as good as their clocks' synchronisation.
public enum UTCTime {
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * Timebase.nanosecondsPerSecond + UInt64(time.tv_nsec)
    }

    /// Between 2001 and 2100: a stamp in broadcast time (ns since the broadcast started)
    /// would need a broadcast 31 years long to look like one.
    public static func isPlausible(_ nanoseconds: UInt64) -> Bool {
        (978_307_200_000_000_000 ..< 4_102_444_800_000_000_000).contains(nanoseconds)
    }
}
