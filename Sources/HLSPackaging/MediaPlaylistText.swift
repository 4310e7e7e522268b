// SPDX-License-Identifier: LGPL-2.1-or-later

extension MediaPlaylist {
    /// The playlist's text. `skipping`: a delta update (`_HLS_skip=YES`, RFC 8216bis 6.2.5.1)
    /// that replaces the oldest segments before the skip boundary with `EXT-X-SKIP`.
    /// `reports`: the other renditions' newest parts.
    public func text(skipping: Bool = false, reports: [RenditionReport] = []) -> String {
        let skipped = skipping ? skippableSegments : 0
        var lines = [
            "#EXTM3U",
            // EXT-X-SKIP needs version 9; EXT-X-MAP in a playlist with more than I-frames, 6.
            "#EXT-X-VERSION:\(skipped > 0 ? 9 : 6)",
            "#EXT-X-TARGETDURATION:\(settings.targetDuration)",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=\(PlaylistText.decimal(settings.skipUntil)),"
                + "PART-HOLD-BACK=\(PlaylistText.decimal(settings.partHoldBack, roundingUp: true))",
            "#EXT-X-PART-INF:PART-TARGET=\(PlaylistText.decimal(settings.partTarget, roundingUp: true))",
            "#EXT-X-MEDIA-SEQUENCE:\(firstSequence)",
        ]
        if discontinuitySequence > 0 { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        lines.append("#EXT-X-MAP:URI=\(PlaylistText.quoted(settings.initURI))")
        if skipped > 0 { lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)") }
        let listed = segments.dropFirst(skipped) + (open.map { [$0] } ?? [])
        let partsFrom = partsListedFrom
        for segment in listed {
            if segment.afterDiscontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(ProgramDateTime.text(segment.programDateTime))")
            if segment.sequence >= partsFrom {
                for part in segment.parts {
                    lines.append("#EXT-X-PART:DURATION=\(PlaylistText.decimal(part.duration)),URI=\(PlaylistText.quoted(part.uri))"
                        + (part.independent ? ",INDEPENDENT=YES" : ""))
                }
            }
            if segment.sequence != open?.sequence {
                lines.append("#EXTINF:\(PlaylistText.decimal(segment.duration)),")
                lines.append(segment.uri)
            }
        }
        if let nextPartURI { lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\(PlaylistText.quoted(nextPartURI))") }
        for report in reports {
            lines.append("#EXT-X-RENDITION-REPORT:URI=\(PlaylistText.quoted(report.uri)),LAST-MSN=\(report.lastSequence),LAST-PART=\(report.lastPart)")
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many of the oldest complete segments a delta update may leave out: those that
    /// end more than `CAN-SKIP-UNTIL` before the end of the last complete segment (the skip
    /// boundary, 4.4.5.2). None once the playlist has ended (6.2.5.1).
    var skippableSegments: Int {
        guard !ended else { return 0 }
        var fromEnd = 0.0
        var count = segments.count
        for segment in segments.reversed() {
            if fromEnd >= settings.skipUntil { break }
            fromEnd += segment.duration
            count -= 1
        }
        return count
    }

    /// Part tags go once they are more than three target durations from the end (6.2.2); a
    /// segment's parts are listed while all of them are within that, and the open segment's
    /// always. The sequence number of the first segment listed with its parts.
    var partsListedFrom: UInt64 {
        var fromEnd = open?.duration ?? 0
        var first = open?.sequence ?? nextSegmentSequence
        for segment in segments.reversed() {
            fromEnd += segment.duration
            if fromEnd > 3 * Double(settings.targetDuration) { break }
            first = segment.sequence
        }
        return first
    }
}
