// SPDX-License-Identifier: LGPL-2.1-or-later

/// GStreamer's unit of time, the nanosecond, and conversions between it and counts at a rate
/// (audio frames at a sample rate, video frames at a frame rate, pixels scrolled per second).
///
/// Products are taken in full width, so nothing overflows on the way; a result too large
/// for 64 bits is `UInt64.max`, as `gst_util_uint64_scale` returns G_MAXUINT64. The three
/// roundings are those of `gst_util_uint64_scale`, `_round` and `_ceil`.
public enum Timebase {
    public static let nanosecondsPerSecond: UInt64 = 1_000_000_000
    public static let nanosecondsPerMillisecond: UInt64 = 1_000_000

    public enum Rounding: Sendable {
        case down, nearest, up
    }

    /// `value` · `numerator` / `denominator`, rounded as asked (nearest: halves up).
    public static func scale(_ value: UInt64, _ numerator: UInt64, _ denominator: UInt64,
                             _ rounding: Rounding = .down) -> UInt64 {
        precondition(denominator > 0, "a scale needs a positive denominator")
        let (high, low) = value.multipliedFullWidth(by: numerator)
        guard high < denominator else { return .max }
        let (quotient, remainder) = denominator.dividingFullWidth((high, low))
        let roundsUp = switch rounding {
        case .down: false
        case .nearest: remainder >= denominator - remainder
        case .up: remainder > 0
        }
        return roundsUp && quotient < .max ? quotient + 1 : quotient
    }

    /// How long `count` units last at `rate` units per second.
    public static func nanoseconds(_ count: UInt64, atRate rate: UInt64, _ rounding: Rounding = .down) -> UInt64 {
        scale(count, nanosecondsPerSecond, rate, rounding)
    }

    /// How many units at `rate` per second fit in `nanoseconds`.
    public static func count(inNanoseconds nanoseconds: UInt64, atRate rate: UInt64, _ rounding: Rounding = .down) -> UInt64 {
        scale(nanoseconds, rate, nanosecondsPerSecond, rounding)
    }

    /// A Swift `Duration` in whole nanoseconds (rounded down; 0 for a negative one).
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        // An attosecond is 10⁻¹⁸ s: as many per nanosecond as nanoseconds per second.
        return UInt64(seconds) * nanosecondsPerSecond + UInt64(attoseconds) / nanosecondsPerSecond
    }

    /// Nanoseconds as seconds, for reports and arithmetic on durations (signed: a difference).
    public static func seconds<Nanoseconds: BinaryInteger>(_ nanoseconds: Nanoseconds) -> Double {
        Double(nanoseconds) / Double(nanosecondsPerSecond)
    }

    /// Nanoseconds already in floating point (a difference of two times) as seconds.
    public static func seconds(_ nanoseconds: Double) -> Double {
        nanoseconds / Double(nanosecondsPerSecond)
    }

    /// Whole milliseconds in `nanoseconds` (rounded down), for logs and messages.
    public static func milliseconds<Nanoseconds: BinaryInteger>(_ nanoseconds: Nanoseconds) -> Nanoseconds {
        nanoseconds / Nanoseconds(nanosecondsPerMillisecond)
    }
}
