// SPDX-License-Identifier: LGPL-2.1-or-later

extension ReadPlaylist {
    /// What in this playlist breaks RFC 8216bis's rules for Low-Latency HLS, as strict
    /// players enforce them, one sentence each; `previous`, the same playlist read before,
    /// adds the rules between reads. Durations compare as written, to five places.
    public func violations(after previous: ReadPlaylist? = nil) -> [String] {
        var found: [String] = []
        let slack = 0.000_005
        let allParts = segments.flatMap(\.parts) + openParts
        if let target = targetDuration {
            for segment in segments where segment.duration.rounded() > Double(target) {
                found.append("segment \(segment.sequence) lasts \(segment.duration) s, more than the target duration \(target) s")
            }
        }
        if !allParts.isEmpty {
            guard let partTarget else { return found + ["parts without EXT-X-PART-INF"] }
            for part in allParts where part.duration > partTarget + slack {
                found.append("\(part.uri) lasts \(part.duration) s, more than PART-TARGET \(partTarget) s")
            }
            // 4.4.4.9: a part is at least 85 % of the target unless it is independent or its segment's last.
            for parts in segments.map(\.parts) + [openParts] {
                for part in parts.dropLast() where !part.independent && part.duration < 0.85 * partTarget - slack {
                    found.append("\(part.uri) lasts \(part.duration) s, less than 85 % of PART-TARGET \(partTarget) s")
                }
            }
            if (partHoldBack ?? 0) < 3 * partTarget - slack {
                found.append("PART-HOLD-BACK \(partHoldBack.map { "\($0)" } ?? "missing") is less than three PART-TARGETs (\(3 * partTarget) s)")
            }
            if !ended && preloadHint == nil { found.append("a live playlist with parts has no EXT-X-PRELOAD-HINT for the next part") }
            if !ended && !canBlockReload { found.append("parts without CAN-BLOCK-RELOAD=YES") }
        }
        for segment in segments where !segment.parts.isEmpty {
            let sum = segment.parts.reduce(0) { $0 + $1.duration }
            if abs(sum - segment.duration) > slack * Double(segment.parts.count + 1) {
                found.append("the parts of segment \(segment.sequence) add up to \(sum) s, its EXTINF says \(segment.duration) s")
            }
        }
        if skippedSegments > 0 {
            let kept = segments.reduce(0) { $0 + $1.duration }
            if let until = canSkipUntil, kept < until - slack {
                found.append("\(skippedSegments) segments skipped, leaving \(kept) s listed, less than CAN-SKIP-UNTIL \(until) s")
            } else if canSkipUntil == nil {
                found.append("EXT-X-SKIP without CAN-SKIP-UNTIL")
            }
            if (version ?? 0) < 9 { found.append("EXT-X-SKIP in a playlist of version \(version ?? 1), not 9") }
        }
        guard let previous else { return found }
        if mediaSequence < previous.mediaSequence {
            found.append("EXT-X-MEDIA-SEQUENCE went back from \(previous.mediaSequence) to \(mediaSequence)")
        }
        if let now = lastPart, let before = previous.lastPart, (now.sequence, now.index) < (before.sequence, before.index) {
            found.append("the newest part went back from \(before.sequence).\(before.index) to \(now.sequence).\(now.index)")
        }
        if let hint = previous.preloadHint, let next = partAfter(previous.lastPart), next.uri != hint {
            found.append("the part after \(previous.lastPart.map { "\($0.sequence).\($0.index)" } ?? "none") is \(next.uri), the hint named \(hint)")
        }
        return found
    }

    /// The part that follows `part` (a segment's sequence number and index) in this playlist.
    private func partAfter(_ part: (sequence: UInt64, index: Int)?) -> Part? {
        guard let part else { return nil }
        var listed = segments.map { ($0.sequence, $0.parts) }
        listed.append((mediaSequence + UInt64(skippedSegments + segments.count), openParts))
        for (sequence, parts) in listed {
            if sequence == part.sequence, part.index + 1 < parts.count { return parts[part.index + 1] }
            if sequence == part.sequence + 1, let first = parts.first { return first }
        }
        return nil
    }
}
