// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// Durations as schedules and activity patterns write them: a decimal number and a unit.
///
/// Accepted: digits with an optional fraction of up to 9 digits, then `ms`, `s`, `m`
/// (minutes) or `h`, e.g. `500ms`, `5s`, `1.5s`, `2m`, `0.25h`. No sign, no exponent, no
/// spaces inside, no compound forms like `1m30s`. The value is converted exactly (integer
/// arithmetic), so `0.1s` is 100,000,000 ns, not a binary approximation of it.
package enum DurationText {
    package static let expected = "expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"

    /// The shortest exact spelling in whole milliseconds, or seconds with a 9-digit fraction
    /// when the value is finer than a millisecond.
    package static func format(_ nanoseconds: UInt64) -> String {
        if nanoseconds % Timebase.nanosecondsPerMillisecond == 0 { return "\(Timebase.milliseconds(nanoseconds))ms" }
        let fraction = String(nanoseconds % Timebase.nanosecondsPerSecond)
        return "\(nanoseconds / Timebase.nanosecondsPerSecond).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)s"
    }

    /// Nanoseconds, or why the text is not a duration.
    package static func nanoseconds(_ text: Substring) -> Result<UInt64, DurationError> {
        let units: [(suffix: String, nanoseconds: UInt64)] = [
            ("ms", 1_000_000), ("s", Timebase.nanosecondsPerSecond), ("m", 60 * Timebase.nanosecondsPerSecond),
            ("h", 3600 * Timebase.nanosecondsPerSecond),
        ]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else {
            return .failure(.init(text: text, reason: "bad time \"\(text)\": \(expected)"))
        }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !whole.isEmpty, isDigits(whole), isDigits(fraction), parts.count == 1 || !fraction.isEmpty,
              fraction.count <= 9
        else {
            return .failure(.init(text: text, reason: "bad time \"\(text)\": \(expected)"))
        }
        let tooLong = DurationError(text: text, reason: "time \"\(text)\" is too long")
        guard let wholeValue = UInt64(whole) else { return .failure(tooLong) }
        let (wholeNanoseconds, overflow) = wholeValue.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !overflow else { return .failure(tooLong) }
        var scale: UInt64 = 1
        for _ in fraction { scale *= 10 }
        // fraction < scale ≤ 10⁹ and unit ≤ 3.6·10¹², so the product stays below 2⁶⁴.
        let fractionNanoseconds = (UInt64(fraction) ?? 0) * unit.nanoseconds
        guard fractionNanoseconds % scale == 0 else {
            return .failure(.init(text: text, reason: "time \"\(text)\" is finer than a nanosecond"))
        }
        let (total, overflowTotal) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds / scale)
        return overflowTotal ? .failure(tooLong) : .success(total)
    }
}

package struct DurationError: Error {
    package var text: Substring
    package var reason: String
}
