// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging
import Testing

struct MediaPlaylistTests {
    static let settings = MediaPlaylist.Settings(targetDuration: 1, partTarget: 0.25, initURI: "init.mp4", window: 8)
    static let start = 1_764_820_800.0  // 2025-12-04T04:00:00Z

    /// `segments` complete segments of four 0.25 s parts, then `open` parts of the next.
    static func playlist(segments: Int, open: Int, settings: MediaPlaylist.Settings = settings) -> MediaPlaylist {
        var playlist = MediaPlaylist(settings: settings)
        for sequence in 0..<segments {
            for index in 0..<4 { append(&playlist, sequence, index, last: index == 3) }
            playlist.closeSegment()
        }
        for index in 0..<open { append(&playlist, segments, index, last: false) }
        return playlist
    }

    static func append(_ playlist: inout MediaPlaylist, _ sequence: Int, _ index: Int, last: Bool) {
        playlist.append(.init(uri: "part\(sequence).\(index).m4s", duration: 0.25, independent: index == 0),
                        startingSegmentAt: index == 0 ? start + Double(sequence) : nil, segmentURI: "segment\(sequence).m4s",
                        nextPartURI: last ? "part\(sequence + 1).0.m4s" : "part\(sequence).\(index + 1).m4s")
    }

    @Test func theLivePlaylistListsPartsOfRecentSegmentsAndHintsTheNextPart() {
        let text = Self.playlist(segments: 4, open: 2).text(reports: [.init(uri: "../audio/index.m3u8", lastSequence: 4, lastPart: 1)])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(8)) == [
            "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:1",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6.00000,PART-HOLD-BACK=0.75000",
            "#EXT-X-PART-INF:PART-TARGET=0.25000", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-MAP:URI=\"init.mp4\"",
            "#EXT-X-PROGRAM-DATE-TIME:2025-12-04T04:00:00.000Z",
        ])
        // Parts within three target durations of the end: those of segments 2 and 3 and the open 4.
        let parts = lines.filter { $0.hasPrefix("#EXT-X-PART:") }
        #expect(parts.count == 4 + 4 + 2 && parts.first == "#EXT-X-PART:DURATION=0.25000,URI=\"part2.0.m4s\",INDEPENDENT=YES")
        #expect(parts.last == "#EXT-X-PART:DURATION=0.25000,URI=\"part4.1.m4s\"")
        #expect(lines.filter { $0.hasPrefix("#EXTINF:") } == Array(repeating: "#EXTINF:1.00000,", count: 4))
        #expect(lines.suffix(2) == ["#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part4.2.m4s\"",
                                    "#EXT-X-RENDITION-REPORT:URI=\"../audio/index.m3u8\",LAST-MSN=4,LAST-PART=1"])
        #expect(lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }.count == 5)
    }

    @Test func segmentsLeaveTheWindowAndTheirFilesGoAWindowLater() {
        var playlist = MediaPlaylist(settings: Self.settings)
        var expired: [UInt64] = []
        for sequence in 0..<20 {
            for index in 0..<4 { Self.append(&playlist, sequence, index, last: index == 3) }
            expired += playlist.closeSegment().map(\.sequence)
        }
        #expect(playlist.firstSequence == 12 && playlist.segments.count == 8)
        #expect(expired == Array(0...3))
        #expect(playlist.text().contains("#EXT-X-MEDIA-SEQUENCE:12\n"))
    }

    /// A delta update skips the segments that end more than CAN-SKIP-UNTIL (6 s) before the
    /// last complete segment's end: of 16 one-second segments, the first 10.
    @Test func aDeltaUpdateSkipsOnlyWhatTheSkipBoundaryAllows() {
        let settings = MediaPlaylist.Settings(targetDuration: 1, partTarget: 0.25, initURI: "init.mp4", window: 20)
        let playlist = Self.playlist(segments: 16, open: 1, settings: settings)
        let delta = playlist.text(skipping: true).split(separator: "\n").map(String.init)
        #expect(delta.contains("#EXT-X-VERSION:9") && delta.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=10"))
        #expect(delta.contains("#EXT-X-MEDIA-SEQUENCE:0"))
        #expect(delta.filter { $0.hasPrefix("#EXTINF:") }.count == 6 && delta.contains("segment10.m4s") && !delta.contains("segment9.m4s"))
        let whole = playlist.text().split(separator: "\n")
        #expect(whole.filter { $0.hasPrefix("#EXTINF:") }.count == 16 && !whole.contains { $0.hasPrefix("#EXT-X-SKIP") })
        #expect(Self.playlist(segments: 6, open: 0, settings: settings).text(skipping: true).contains("#EXT-X-SKIP") == false)
    }

    @Test func theEndedPlaylistHasNoHintAndEndsTheList() {
        var playlist = Self.playlist(segments: 2, open: 3)
        playlist.end()
        let text = playlist.text(skipping: true)
        #expect(text.hasSuffix("segment2.m4s\n#EXT-X-ENDLIST\n"))
        #expect(!text.contains("PRELOAD-HINT") && !text.contains("#EXT-X-SKIP") && text.contains("#EXTINF:0.75000,"))
    }

    @Test func segmentsAfterAGapAreMarkedAndTheirCountStaysWhenTheyLeave() {
        var playlist = MediaPlaylist(settings: .init(targetDuration: 1, partTarget: 0.25, initURI: "init.mp4", window: 2))
        for sequence in 0..<5 {
            playlist.append(.init(uri: "p\(sequence)", duration: 0.25, independent: true), startingSegmentAt: Self.start,
                            afterDiscontinuity: sequence == 1, segmentURI: "s\(sequence)", nextPartURI: "p\(sequence + 1)")
            playlist.closeSegment()
            if sequence == 2 { #expect(playlist.text().contains("#EXT-X-DISCONTINUITY\n")) }
        }
        let text = playlist.text()
        #expect(text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:1\n") && !text.contains("#EXT-X-DISCONTINUITY\n"))
    }

    /// Dates round to the nearest millisecond, carrying into the second.
    @Test func programDatesAreUTCToTheNearestMillisecond() {
        #expect(ProgramDateTime.text(Self.start + 0.125) == "2025-12-04T04:00:00.125Z")
        #expect(ProgramDateTime.text(Self.start + 59.9996) == "2025-12-04T04:01:00.000Z")
        #expect(ProgramDateTime.text(Self.start + 0.0004) == "2025-12-04T04:00:00.000Z")
    }
}
