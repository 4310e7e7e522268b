// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging
import Testing

struct MultivariantPlaylistTests {
    @Test func eachVariantCountsItsAudioAndNamesBothCodecs() {
        let audio = MultivariantPlaylist.Audio(uri: "audio/index.m3u8", name: "main", peakBitrate: 140_000, averageBitrate: 130_000,
                                               format: .aac(configuration: InitSegmentTests.aacConfig, sampleRate: 48_000, channels: 2))
        let videos = [(720, 1558, 2_600_000, 2_000_000), (360, 780, 900_000, 700_000)].map { width, height, peak, average in
            MultivariantPlaylist.Video(uri: "\(width)/index.m3u8", peakBitrate: peak, averageBitrate: average,
                                       format: .h264(configuration: InitSegmentTests.avcRecord, width: width, height: height), frameRate: 30)
        }
        #expect(MultivariantPlaylist(videos: videos, audio: audio).text == """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="main",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2740000,AVERAGE-BANDWIDTH=2130000,CODECS="avc1.42C01E,mp4a.40.2",RESOLUTION=720x1558,FRAME-RATE=30.000,AUDIO="audio"
            720/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1040000,AVERAGE-BANDWIDTH=830000,CODECS="avc1.42C01E,mp4a.40.2",RESOLUTION=360x780,FRAME-RATE=30.000,AUDIO="audio"
            360/index.m3u8

            """)
    }

    /// Target duration 2 s: runs of 1 to 3.5 s count. One 0.4 s segment of 100 kB alone is too
    /// short to be a run; with its neighbours (1 s of 50 kB each) it makes the peak.
    @Test func thePeakIsOverRunsOfHalfToOneAndAHalfTargetDurations() {
        var rates = SegmentBitrates(targetDuration: 2)
        for (bytes, duration) in [(50_000, 1.0), (100_000, 0.4), (50_000, 1.0), (50_000, 1.0), (50_000, 1.0)] {
            rates.add(bytes: bytes, duration: duration)
        }
        // 150 kB in 1.4 s (the short one and its predecessor): 857,143 bit/s.
        #expect(rates.peak == 857_143)
        #expect(rates.average == Int((300_000.0 * 8 / 4.4).rounded()))
    }

    @Test func targetsRoundUpOnlyPastWhatTheyHold() {
        let settings = MediaPlaylist.Settings(targetDuration: 1, partTarget: 0.3, initURI: "i", window: 4)
        #expect(MediaPlaylist(settings: settings).text().contains("#EXT-X-PART-INF:PART-TARGET=0.30000\n"))
        let between = MediaPlaylist.Settings(targetDuration: 1, partTarget: 1.0 / 3, initURI: "i", window: 4)
        #expect(MediaPlaylist(settings: between).text().contains("#EXT-X-PART-INF:PART-TARGET=0.33334\n"))
    }
}
