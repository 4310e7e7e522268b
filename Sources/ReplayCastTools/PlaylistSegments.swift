// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// The segments a media playlist lists, in order, with the EXT-X-PROGRAM-DATE-TIME that
/// applies to each (RFC 8216 §4.3.2.6: a date tag dates the segment after it, and later
/// segments follow by their durations until the next date).
package struct PlaylistSegments {
    package struct Segment: Equatable {
        package var uri: String
        package var duration: Double
        /// Seconds since 1970, when the playlist dates it.
        package var programDate: Double?
    }

    package private(set) var segments: [Segment] = []

    package init(_ playlist: String) {
        var duration: Double?
        var date: Double?
        for raw in playlist.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst(8).prefix { $0 != "," })
            } else if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
                date = Self.seconds(since1970: String(line.dropFirst(25)))
            } else if !line.isEmpty, !line.hasPrefix("#") {
                segments.append(Segment(uri: line, duration: duration ?? 0, programDate: date))
                date = date.map { $0 + (duration ?? 0) }
                duration = nil
            }
        }
    }

    /// An ISO 8601 date with fractional seconds and a zone, as playlists carry them.
    static func seconds(since1970 text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}
