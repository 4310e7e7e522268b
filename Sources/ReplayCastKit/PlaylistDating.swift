// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging

/// Rewrites the media playlists hlssink2 renders so players can place each segment in real
/// time: an `EXT-X-PROGRAM-DATE-TIME` before every segment (hlssink2 writes none before
/// GStreamer 1.30) and a target duration no segment exceeds (hlssink2 rounds it to the
/// nearest second, so a 2.4 s segment could sit under a target of 2).
///
/// A segment's date is the date of the first segment plus the durations before it, so
/// dates increase exactly as the media does; a segment keeps its date when the playlist is
/// rendered again (live updates, a sliding window). The first segment's date is the wall
/// clock time of its first frame when the writer knows it (`firstFrame`); otherwise the
/// first playlist's: the wall clock then, minus the durations it lists, which is late by
/// what the segmenter held back (hlssink2's splitmuxsink lists a segment only once the GOP
/// after it is complete).
public struct PlaylistDating: Sendable {
    private var dates: [String: Double] = [:]
    private var next: Double?

    public init() {}

    /// `now`: seconds since 1970 when `playlist` was rendered; `firstFrame`: when the first
    /// segment's first frame was captured, if known.
    public mutating func date(_ playlist: String, now: Double, firstFrame: Double? = nil) -> String {
        let lines = playlist.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        var segments: [(duration: Double, uri: String)] = []
        var pending: Double?
        for line in lines {
            if line.hasPrefix("#EXTINF:") {
                pending = Double(line.dropFirst(8).prefix { $0 != "," }) ?? 0
            } else if let duration = pending, !line.isEmpty, !line.hasPrefix("#") {
                segments.append((duration, String(line)))
                pending = nil
            }
        }
        if next == nil {
            next = firstFrame ?? now - segments.reduce(0) { $0 + $1.duration }
        }
        for segment in segments where dates[segment.uri] == nil {
            dates[segment.uri] = next
            next! += segment.duration
        }
        let longest = segments.map(\.duration).max() ?? 0
        var out = ""
        var index = 0
        for line in lines {
            if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") { continue }
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                let written = Int(line.dropFirst(22)) ?? 0
                out += "#EXT-X-TARGETDURATION:\(max(written, Int(longest.rounded(.up))))\n"
                continue
            }
            if line.hasPrefix("#EXTINF:"), index < segments.count {
                out += "#EXT-X-PROGRAM-DATE-TIME:\(ProgramDateTime.text(dates[segments[index].uri]!))\n"
                index += 1
            }
            out += line + "\n"
        }
        while out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
