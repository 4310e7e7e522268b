// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import HLSPackaging
import Testing

/// The CMAF writer on real encoder output, read back by clients that owe it nothing:
/// ffmpeg's HLS demuxer and decoders through the playlist, and GStreamer's qtdemux over the
/// init segment and each part.
struct CMAFRealClientTests {
    static let frames = 90

    /// Encodes 3 s of 320x240 at 30 fps (x264, a keyframe a second, `bframes`) and 48 kHz
    /// stereo AAC, and packages each track into its own folder: 0.3 s parts, 1 s segments.
    static func package(bframes: Int) throws -> (root: URL, video: EncodedStream, audio: EncodedStream) {
        let video = EncodedStream(), audio = EncodedStream()
        let run = try PipelineRun.run(
            "videotestsrc num-buffers=\(frames) pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 "
                + "! x264enc key-int-max=30 bframes=\(bframes) speed-preset=ultrafast ! h264parse "
                + "! video/x-h264,stream-format=avc,alignment=au ! fakesink name=video "
                + "audiotestsrc num-buffers=141 samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 "
                + "! avenc_aac ! aacparse ! fakesink name=audio", timeout: 30,
            prepare: { pipeline in
                video.attach(to: pipeline, element: "video")
                audio.attach(to: pipeline, element: "audio")
            })
        #expect(run.error == nil && run.reachedEOS)
        let root = try temporaryDirectory("cmaf")
        let settings = TrackPackager.Settings(partTarget: 0.3, segmentTarget: 1, window: 10)
        let tracks: [(String, EncodedStream, TrackFormat)] = [
            ("video", video, .h264(configuration: video.codecData, width: 320, height: 240)),
            ("audio", audio, .aac(configuration: audio.codecData, sampleRate: 48_000, channels: 2)),
        ]
        for (name, stream, format) in tracks {
            var packager = try TrackPackager(format: format, settings: settings,
                                             folder: OutputFolder(making: root.appendingPathComponent(name).path))
            // x264enc counts from 1000 hours, as GStreamer encoders do to keep decode times positive.
            let base = stream.units.first?.dts ?? 0
            // Times in ticks, rounded to nearest (GStreamer's 30/1 frames end a nanosecond short
            // of the next one's start); a duration is the difference of its ends, so the samples
            // tile the timeline.
            let time = { (ns: UInt64) in
                let product = (ns - base).multipliedFullWidth(by: UInt64(format.timescale))
                let (sum, carry) = product.low.addingReportingOverflow(500_000_000)
                return UInt64(1_000_000_000).dividingFullWidth((product.high + (carry ? 1 : 0), sum)).quotient
            }
            for unit in stream.units {
                _ = try unit.bytes.withUnsafeBytes {
                    try packager.add(decodeTime: time(unit.dts), duration: time(unit.dts + unit.duration) - time(unit.dts),
                                     compositionOffset: Int32(Int64(time(unit.pts)) - Int64(time(unit.dts))),
                                     isSync: unit.isSync, bytes: $0, wallClock: 1_764_820_800 + Double(unit.dts - base) / 1e9)
                }
            }
            try packager.finish()
            try packager.writePlaylist()
        }
        return (root, video, audio)
    }

    static func probe(_ arguments: [String]) throws -> String {
        let result = try runCommand("/usr/bin/ffprobe", ["-v", "error"] + arguments)
        #expect(result.status == 0, "\(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [0, 2])
    func ffmpegPlaysEachPlaylistFrameForFrame(bframes: Int) throws {
        let (root, video, audio) = try Self.package(bframes: bframes)
        #expect(video.units.count == Self.frames && video.units.filter(\.isSync).count == 3)
        // Every frame decoded, 1/30 s after the one before. JSON: x264's first frame carries
        // side data, which the csv writer prints into the frame's line.
        let probed = try Self.probe(["-show_entries", "frame=pts_time", "-of", "json", root.appendingPathComponent("video/index.m3u8").path])
        let entries = try #require(JSONSerialization.jsonObject(with: Data(probed.utf8)) as? [String: [[String: Any]]])
        let times = try #require(entries["frames"]).compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        #expect(times.count == Self.frames, "\(times.count) frames decoded")
        let first = try #require(times.first)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.0005 }, "frame steps \(Set(steps.map { ($0 * 1e4).rounded() / 1e4 }))")
        print("bframes=\(bframes): \(times.count) frames through the playlist, from \(first) s, every step 1/30 s")
        // The playlist's stream is listed once under its program and once on its own.
        let audioFrames = try Self.probe(["-count_frames", "-select_streams", "a:0", "-show_entries", "stream=nb_read_frames",
                                          "-of", "csv=p=0", root.appendingPathComponent("audio/index.m3u8").path])
        #expect(Set(audioFrames.split(separator: "\n").filter { !$0.isEmpty }) == ["\(audio.units.count)"],
                "\(audioFrames) of \(audio.units.count) AAC frames decoded")
        // The playlists keep the rules, with a segment per second begun (AAC: 142 frames, 3.03 s).
        for (track, stream) in [("video", video), ("audio", audio)] {
            let read = try ReadPlaylist(String(contentsOf: root.appendingPathComponent("\(track)/index.m3u8"), encoding: .utf8))
            let seconds = Double(stream.units.reduce(0) { $0 + $1.duration }) / 1e9
            #expect(read.violations() == [] && read.ended, "\(track): \(read.violations())")
            #expect(read.segments.count == Int((seconds - 0.001).rounded(.up)), "\(track): \(read.segments.count) segments for \(seconds) s")
        }
        // ffmpeg decodes it clean: no error, no warning.
        let decoded = try runCommand("/usr/bin/ffmpeg", ["-v", "warning", "-i", root.appendingPathComponent("video/index.m3u8").path,
                                                         "-i", root.appendingPathComponent("audio/index.m3u8").path,
                                                         "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.output.isEmpty, "\(decoded.output)")
    }

    /// qtdemux, given the init segment and the parts of a segment up to one of them, decodes
    /// exactly their frames: parts follow on from each other, and an independent one starts
    /// with a keyframe, as CMAF and `INDEPENDENT=YES` promise.
    @Test func gstreamerDecodesThePartsAfterTheInitSegment() throws {
        let (root, _, _) = try Self.package(bframes: 0)
        let folder = root.appendingPathComponent("video")
        let playlist = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let parts = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-PART:") }
        let uri = { (tag: Substring) in String(tag.split(separator: "\"")[1]) }
        let frames = { (tag: Substring) in Int((Double(tag.split(separator: ",")[0].split(separator: "=")[1])! * 30).rounded()) }
        #expect(parts.count >= 8, "\(parts.count) parts listed")
        let initSegment = try Data(contentsOf: folder.appendingPathComponent("init.mp4"))
        for index in parts.indices {
            let start = parts[...index].lastIndex { $0.contains("INDEPENDENT=YES") } ?? parts.startIndex
            var file = initSegment
            for part in parts[start...index] { file += try Data(contentsOf: folder.appendingPathComponent(uri(part))) }
            let path = root.appendingPathComponent("check\(index).mp4")
            try file.write(to: path)
            let decoded = PadRecorder()
            let run = try PipelineRun.run("filesrc location=\(path.path) ! qtdemux ! h264parse ! avdec_h264 ! fakesink name=out",
                                          timeout: 10, prepare: { decoded.attach(to: $0, element: "out", pad: "sink") })
            #expect(run.error == nil && run.reachedEOS, "\(uri(parts[index])): \(String(describing: run.error))")
            let expected = parts[start...index].map(frames).reduce(0, +)
            #expect(decoded.buffers.count == expected, "\(uri(parts[start]))…\(uri(parts[index])): \(decoded.buffers.count) frames, DURATION says \(expected)")
        }
        print("qtdemux + avdec_h264: each of \(parts.count) parts decoded after the init segment and its segment's earlier parts")
    }
}
