// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import ReplayCast
import ReplayCastKit
import Testing

@Suite struct HLSPlaylistsTests {
    static let rendered = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-TARGETDURATION:2

        #EXTINF:2,
        segment00000.ts
        #EXTINF:2.4000000953674316,
        segment00001.ts
        """

    static func dates(_ playlist: String) -> [String] {
        playlist.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }.map { String($0.dropFirst(25)) }
    }

    @Test func everySegmentGetsADateFromTheDurationsBeforeIt() {
        var dating = PlaylistDating()
        // 1 800 000 004.4 s after 1970 = 2027-01-15T08:00:04.400Z, when both segments were listed.
        let dated = dating.date(Self.rendered, now: 1_800_000_004.4)
        #expect(Self.dates(dated) == ["2027-01-15T08:00:00.000Z", "2027-01-15T08:00:02.000Z"])
        #expect(dated.contains("#EXT-X-TARGETDURATION:3\n"), "2.4 s needs a target of 3")
        let lines = dated.split(separator: "\n")
        let firstDate = lines.firstIndex { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") }!
        #expect(lines[firstDate + 1] == "#EXTINF:2,")
    }

    @Test func theFirstFrameDatesTheFirstSegmentWhenKnown() {
        var dating = PlaylistDating()
        // Listed 2 s after the 4.4 s of media, as a segmenter holding a GOP back lists them.
        let dated = dating.date(Self.rendered, now: 1_800_000_006.4, firstFrame: 1_800_000_000.25)
        #expect(Self.dates(dated) == ["2027-01-15T08:00:00.250Z", "2027-01-15T08:00:02.250Z"])
    }

    @Test func datesStayWhenThePlaylistGrowsOrSlides() {
        var dating = PlaylistDating()
        _ = dating.date(Self.rendered, now: 1_800_000_004.4)
        let slid = """
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:1
            #EXT-X-TARGETDURATION:2
            #EXTINF:2.4000000953674316,
            segment00001.ts
            #EXTINF:1.5,
            segment00002.ts
            #EXT-X-ENDLIST
            """
        // Rendered much later: dates still follow the media, not the wall clock.
        let dated = dating.date(slid, now: 1_800_000_100)
        #expect(Self.dates(dated) == ["2027-01-15T08:00:02.000Z", "2027-01-15T08:00:04.400Z"])
        #expect(dated.hasSuffix("#EXT-X-ENDLIST\n"))
    }

    /// hlssink2 through HLSPlaylists: the playlist on disk is dated and finished; a folder
    /// that does not exist is an error naming the playlist's path.
    @Test func hlssink2WritesDatedPlaylists() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let description = "videotestsrc num-buffers=90 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
            + "! x264enc key-int-max=15 ! h264parse ! hlssink2 name=hls target-duration=1 playlist-length=0 max-files=0 "
            + "location=\(folder)/s%05d.ts playlist-location=\(folder)/playlist.m3u8"
        var attached = 0
        let run = try PipelineRun.run(description, prepare: { attached = HLSPlaylists.take(over: $0) })
        #expect(attached == 1)
        #expect(run.error == nil && run.reachedEOS)
        let playlist = try String(contentsOfFile: "\(folder)/playlist.m3u8", encoding: .utf8)
        let dates = Self.dates(playlist)
        #expect(dates.count == 3, "\(playlist)")
        #expect(dates == dates.sorted() && Set(dates).count == dates.count)
        #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n"))

        let missing = "\(folder)/missing/playlist.m3u8"
        let broken = description.replacingOccurrences(of: "playlist-location=\(folder)/playlist.m3u8", with: "playlist-location=\(missing)")
        let failed = try PipelineRun.run(broken, prepare: { HLSPlaylists.take(over: $0) })
        let error = try #require(failed.error)
        #expect(error.source == "hls" && error.text.contains("cannot write the HLS playlist \(missing)"), "\(error)")
    }
}
