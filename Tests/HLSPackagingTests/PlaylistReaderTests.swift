// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import HLSPackaging
import Testing

struct PlaylistReaderTests {
    /// What MediaPlaylist writes reads back as it was meant, and breaks no rule, whole and as
    /// a delta update, and from one part to the next.
    @Test func ourPlaylistsReadBackAndKeepTheRules() throws {
        let settings = MediaPlaylist.Settings(targetDuration: 1, partTarget: 0.25, initURI: "init.mp4", window: 20)
        var playlist = MediaPlaylistTests.playlist(segments: 15, open: 3, settings: settings)
        let whole = try ReadPlaylist(playlist.text(reports: [.init(uri: "../a/index.m3u8", lastSequence: 15, lastPart: 2)]))
        #expect(whole.version == 6 && whole.targetDuration == 1 && whole.partTarget == 0.25 && whole.partHoldBack == 0.75)
        #expect(whole.canBlockReload && whole.canSkipUntil == 6 && whole.map == "init.mp4")
        #expect(whole.segments.count == 15 && whole.segments.map(\.sequence) == Array(0...14))
        #expect(whole.segments.last?.parts.count == 4 && whole.segments.first?.parts.isEmpty == true)
        #expect(whole.openParts.map(\.uri) == ["part15.0.m4s", "part15.1.m4s", "part15.2.m4s"])
        #expect(whole.lastPart! == (15, 2) && whole.preloadHint == "part15.3.m4s")
        #expect(whole.reports == [.init(uri: "../a/index.m3u8", lastSequence: 15, lastPart: 2)])
        #expect(whole.violations() == [])

        let delta = try ReadPlaylist(playlist.text(skipping: true))
        #expect(delta.skippedSegments == 9 && delta.segments.first?.sequence == 9 && delta.version == 9)
        #expect(delta.violations() == [])

        MediaPlaylistTests.append(&playlist, 15, 3, last: true)
        playlist.closeSegment()
        MediaPlaylistTests.append(&playlist, 16, 0, last: false)
        let next = try ReadPlaylist(playlist.text())
        #expect(next.violations(after: whole) == [], "the hint named the part that came")
        #expect(next.lastPart! == (16, 0))
    }

    @Test func brokenRulesAreEachNamed() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:1
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.5
            #EXT-X-PART-INF:PART-TARGET=0.25
            #EXT-X-MEDIA-SEQUENCE:3
            #EXT-X-PART:DURATION=0.30000,URI="a.0",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.10000,URI="a.1"
            #EXT-X-PART:DURATION=0.25000,URI="a.2"
            #EXTINF:0.70000,
            a
            #EXTINF:1.60000,
            b
            #EXT-X-SKIP:SKIPPED-SEGMENTS=2
            """
        let violations = try ReadPlaylist(text).violations()
        #expect(violations == [
            "segment 4 lasts 1.6 s, more than the target duration 1 s",
            "a.0 lasts 0.3 s, more than PART-TARGET 0.25 s",
            "a.1 lasts 0.1 s, less than 85 % of PART-TARGET 0.25 s",
            "PART-HOLD-BACK 0.5 is less than three PART-TARGETs (0.75 s)",
            "a live playlist with parts has no EXT-X-PRELOAD-HINT for the next part",
            "the parts of segment 3 add up to 0.65 s, its EXTINF says 0.7 s",
            "EXT-X-SKIP without CAN-SKIP-UNTIL",
            "EXT-X-SKIP in a playlist of version 6, not 9",
        ])
        let earlier = try ReadPlaylist(MediaPlaylistTests.playlist(segments: 6, open: 1).text())
        let later = try ReadPlaylist(MediaPlaylistTests.playlist(segments: 5, open: 2).text())
        #expect(later.violations(after: earlier) == ["the newest part went back from 6.0 to 5.1"])
    }

    @Test func aTagThatDoesNotParseNamesItsLine() {
        for (text, line, reason) in [
            ("#EXTM3U\n#EXT-X-TARGETDURATION:two\n", 2, "#EXT-X-TARGETDURATION: two is not a whole number of seconds"),
            ("#EXTM3U\n#EXT-X-PART:DURATION=0.2,URI=\"a\n", 2, "#EXT-X-PART: the attribute list DURATION=0.2,URI=\"a does not parse"),
            ("#EXTM3U\n\nsegment0.m4s\n", 3, "segment0.m4s has no #EXTINF before it"),
            ("#EXT-X-VERSION:6\n", 1, "a playlist starts with #EXTM3U"),
        ] {
            #expect(throws: ReadPlaylist.Malformed(line: line, reason: reason)) { try ReadPlaylist(text) }
        }
    }
}
