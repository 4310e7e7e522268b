// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// `EXT-X-PROGRAM-DATE-TIME`'s value (RFC 8216bis, 4.4.4.6): ISO 8601 in UTC, to the
/// millisecond, rounded to the nearest.
public enum ProgramDateTime {
    /// `2026-12-04T04:20:00.125Z` for seconds since 1970.
    public static func text(_ seconds: Double) -> String {
        var whole = time_t(seconds.rounded(.down))
        var millis = Int(((seconds - Double(whole)) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        var parts = tm()
        gmtime_r(&whole, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}
