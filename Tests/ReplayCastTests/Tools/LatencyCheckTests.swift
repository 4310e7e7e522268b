// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastKit
import ReplayCastTools
import Testing

@Suite struct LatencyCheckTests {
    @Test func summaryGivesMedianNearestRankP95AndMaximum() throws {
        let twenty = (1 ... 20).map { Double($0) / 100 }
        let summary = try #require(LatencySummary(twenty.reversed()))
        #expect(summary.count == 20)
        #expect(abs(summary.median - 0.105) < 1e-12, "mean of the 10th and 11th")
        #expect(summary.p95 == 0.19, "⌈0.95 · 20⌉ = 19th")
        #expect(summary.maximum == 0.2)
        let odd = try #require(LatencySummary([0.3, 0.1, 0.2]))
        #expect(odd.median == 0.2 && odd.p95 == 0.3 && odd.maximum == 0.3)
        #expect(LatencySummary([]) == nil)
    }

    @Test func playlistSegmentsCarryTheirProgramDates() {
        let playlist = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.250Z
            #EXTINF:2,
            segment00000.ts
            #EXTINF:1.5,
            segment00001.ts
            #EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:04Z
            #EXTINF:2.000,
            segment00002.ts
            #EXT-X-ENDLIST
            """
        let segments = PlaylistSegments(playlist).segments
        #expect(segments.map(\.uri) == ["segment00000.ts", "segment00001.ts", "segment00002.ts"])
        #expect(segments.map(\.duration) == [2, 1.5, 2])
        let start = 1_795_773_600.25 // 2026-11-27T10:00:00.250Z
        let dates = segments.map { $0.programDate ?? -1 }
        #expect(abs(dates[0] - start) < 1e-3)
        #expect(abs(dates[1] - (start + 2)) < 1e-3, "dated by the duration before it")
        #expect(abs(dates[2] - (start + 3.75)) < 1e-3, "a new date tag wins")
        #expect(PlaylistSegments("#EXTM3U\n#EXTINF:2,\na.ts\n").segments.first?.programDate == nil)
    }

    /// Capture times in nanoseconds, in any order: the largest step between neighbours. Frames
    /// 30 to 47 missing: 19 frames' time from the 29th to the 48th.
    @Test func theLongestGapIsTheLargestStepBetweenCaptureTimes() throws {
        let frame: UInt64 = 33_333_333
        let start: UInt64 = 1_790_000_000_000_000_000
        var captures = (0..<30).map { start + UInt64($0) * frame }
        captures += (48..<60).map { start + UInt64($0) * frame }
        #expect(LatencyCheck.longestGap(between: captures.reversed()) == Double(19 * frame) / 1e9)
        #expect(LatencyCheck.longestGap(between: [start, start + frame]) == Double(frame) / 1e9)
        #expect(LatencyCheck.longestGap(between: [start]) == nil)
        #expect(LatencyCheck.longestGap(between: []) == nil)
    }

    @Test func outputsAreStreamsUnlessTheyArePlaylists() {
        #expect(LatencyCheck.kind(of: "out/hls/playlist.m3u8") == .hls)
        #expect(LatencyCheck.kind(of: "file:///tmp/live.M3U8?x=1") == .hls)
        #expect(LatencyCheck.kind(of: "rtmp://127.0.0.1/live/a") == .stream)
        #expect(LatencyCheck.kind(of: "srt://0.0.0.0:9000?mode=listener") == .stream)
    }
}
