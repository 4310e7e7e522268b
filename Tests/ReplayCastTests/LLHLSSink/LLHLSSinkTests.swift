// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import Foundation
import HLSPackaging
import ReplayCastSupport
import Synchronization
import Testing

/// llhlssink against the players and rules it writes for: ffmpeg and qtdemux read what it
/// wrote, its playlists keep LL-HLS's rules while it writes them, hlssink2 on the same input
/// makes the same segments, and what it cannot do is an error naming the element and value.
struct LLHLSSinkTests {
    static let matrixFolder = FileManager.default.temporaryDirectory.appendingPathComponent("replaycast-llhls-matrix-\(getpid())").path

    /// `frames` of 64x48 H.264 at 30 fps (a keyframe every 10) and AAC into `folder`, 0.3 s
    /// parts of 1 s segments; the raw frames observed at `out` through the tee.
    static func ladder(live: Bool, frames: Int, folder: String) -> String {
        "videotestsrc is-live=\(live) num-buffers=\(frames) ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! tee name=t "
            + "! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 ! h264parse ! ll.video_0 "
            + "t. ! queue ! fakesink name=out "
            + "audiotestsrc is-live=\(live) num-buffers=\(frames * 3 / 2) samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 "
            + "! avenc_aac ! aacparse ! ll.audio "
            + "llhlssink name=ll location=\(folder) target-duration=1"
    }

    static let harnessCaps = "video/x-h264,stream-format=avc,alignment=au,width=64,height=48,framerate=30/1,"
        + "codec_data=(buffer)0142c01effe100046742c01e01000268ce"

    /// llhlssink in a harness on its video pad, writing into `folder` (one of its own if nil).
    static func harness(folder: String? = nil) throws -> Harness {
        GStreamerSetup.ensure()
        let sink = try #require(gst_element_factory_make("llhlssink", nil))
        gst_util_set_object_arg(rc_gobject(sink), "location", try folder ?? temporaryDirectory("llhls-harness").path)
        gst_util_set_object_arg(rc_gobject(sink), "target-duration", "1")
        let harness = Harness(sink: sink, sinkPad: "video_%u", caps: harnessCaps)
        gst_object_unref(sink)
        return harness
    }

    /// 3 s of live H.264 (a keyframe every 10 frames) and AAC, tee'd into llhlssink and
    /// hlssink2 with the same target duration, each through a parser of its own (llhlssink
    /// takes avc and raw AAC, mpegtsmux byte-stream and ADTS); `read` is called every 50 ms
    /// while it runs.
    static func broadcast(_ folder: URL, whilePlaying read: @escaping @Sendable () -> Void) throws -> PipelineRun {
        let ours = folder.appendingPathComponent("ll").path, peer = folder.appendingPathComponent("ts").path
        try FileManager.default.createDirectory(atPath: peer, withIntermediateDirectories: true)
        let description = "videotestsrc is-live=true num-buffers=90 pattern=ball ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
            + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 ! tee name=v "
            + "v. ! queue ! h264parse ! ll.video_0 v. ! queue ! h264parse ! ts.video "
            + "audiotestsrc is-live=true num-buffers=141 samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 "
            + "! avenc_aac ! tee name=a a. ! queue ! aacparse ! ll.audio a. ! queue ! aacparse ! ts.audio "
            + "llhlssink name=ll location=\(ours) target-duration=1 playlist-length=0 "
            + "hlssink2 name=ts target-duration=1 playlist-length=0 max-files=0 location=\(peer)/s%05d.ts playlist-location=\(peer)/playlist.m3u8"
        let done = Atomic<Bool>(false)
        return try PipelineRun.run(description, timeout: 20, whilePlaying: { _ in
            Thread.detachNewThread {
                while !done.load(ordering: .relaxed) {
                    read()
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }, finished: { _ in done.store(true, ordering: .relaxed) })
    }

    /// While it writes, every read of every media playlist keeps the rules, and follows on
    /// from the read before (parts never go back, the hint named the next part); once it
    /// ended, ffmpeg decodes every frame through the multivariant playlist and hlssink2 cut
    /// the same segments.
    @Test func aLiveBroadcastKeepsTheRulesAndMatchesHlssink2() throws {
        let root = try temporaryDirectory("llhlssink-live")
        let ours = root.appendingPathComponent("ll")
        let checked = Locked<(reads: Int, violations: [String], last: [String: ReadPlaylist])>((0, [], [:]))
        let run = try Self.broadcast(root) {
            for rendition in ["video_0", "audio"] {
                guard let text = try? String(contentsOf: ours.appendingPathComponent("\(rendition)/index.m3u8"), encoding: .utf8) else { continue }
                checked.withLock { state in
                    do {
                        let read = try ReadPlaylist(text)
                        state.violations += read.violations(after: state.last[rendition]).map { "\(rendition): \($0)" }
                        state.last[rendition] = read
                        state.reads += 1
                    } catch {
                        state.violations.append("\(rendition): \(error)")
                    }
                }
            }
        }
        #expect(run.error == nil && run.reachedEOS, "\(String(describing: run.error))")
        let (reads, violations, _) = checked.withLock { $0 }
        #expect(reads >= 40 && violations.isEmpty, "\(reads) reads: \(violations.prefix(5))")

        let video = try ReadPlaylist(String(contentsOf: ours.appendingPathComponent("video_0/index.m3u8"), encoding: .utf8))
        #expect(video.ended && video.violations() == [] && video.reports.map(\.uri) == ["../audio/index.m3u8"])
        let decoded = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_name,nb_read_frames",
                                                          "-of", "csv=p=0", ours.appendingPathComponent("index.m3u8").path])
        let counts = Set(decoded.output.split(separator: "\n").filter { !$0.isEmpty })
        #expect(counts.contains("h264,90") && counts.contains { $0.hasPrefix("aac,") }, "\(decoded.output)")

        // hlssink2 on the same stream: as many segments, each as long as ours within a frame.
        let peer = try String(contentsOf: root.appendingPathComponent("ts/playlist.m3u8"), encoding: .utf8)
        let theirs = peer.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).prefix { $0 != "," }) }
        let mine = video.segments.map(\.duration)
        #expect(mine.count == theirs.count && zip(mine, theirs).allSatisfy { abs($0 - $1) <= 1.0 / 30 + 0.001 },
                "llhlssink \(mine), hlssink2 \(theirs)")
        print("llhlssink, 3 s live: \(reads) playlist reads, no rule broken; \(video.segments.count) segments of \(mine) s "
              + "(hlssink2: \(theirs)); ffprobe: \(counts.sorted())")
        try Self.expectSegmentMessages(run, ours, peerEnds: run.elementMessages.filter { $0.fields.name == "splitmuxsink-fragment-closed" }
            .compactMap { $0.fields.uint64("running-time") })
    }

    /// One llhlssink-segment per segment of each rendition's final playlist, in order, naming
    /// its file, size and EXTINF; the video's segments end where hlssink2's splitmuxsink
    /// says its fragments closed, within a frame.
    static func expectSegmentMessages(_ run: PipelineRun, _ ours: URL, peerEnds: [UInt64]) throws {
        let messages = run.messages(from: "ll", named: "llhlssink-segment")
        for rendition in ["video_0", "audio"] {
            let folder = ours.appendingPathComponent(rendition)
            let listed = try ReadPlaylist(String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)).segments
            let posted = messages.filter { $0["rendition"] == .string(rendition) }
            #expect(posted.map { $0.uint64("sequence") } == listed.map(\.sequence), "\(rendition): \(posted)")
            for (message, segment) in zip(posted, listed) {
                let path = folder.appendingPathComponent(segment.uri).path
                let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
                let duration = Double(message.uint64("duration") ?? 0) / 1e9
                #expect(message["location"] == .string(path) && message.uint64("bytes").map(Int.init) == size
                        && abs(duration - segment.duration) < 0.001, "\(rendition) \(segment.uri), \(size ?? 0) bytes: \(message)")
            }
            let ends = posted.compactMap { $0.uint64("running-time") }
            #expect(ends.count == posted.count && ends == ends.sorted(), "\(rendition): ends \(ends)")
            if rendition == "video_0" {
                let far = zip(ends, peerEnds).filter { max($0, $1) - min($0, $1) > 33_333_334 }
                #expect(ends.count == peerEnds.count && far.isEmpty && (ends.last ?? 0) >= 2_966_666_666,
                        "video ends \(ends), hlssink2's fragments \(peerEnds)")
            }
            print("llhlssink-segment, \(rendition): \(posted.count) messages, as many as the playlist's segments; ends \(ends) ns"
                  + (rendition == "video_0" ? " (hlssink2's fragments: \(peerEnds))" : ""))
        }
    }

    /// What it cannot do is an error before data flows, naming the element and the value.
    @Test(arguments: [
        ("location=/dev/null/llhls", "llhlssink cannot write to the folder /dev/null/llhls: Not a directory"),
        ("location={root} playlist-length=2", "llhlssink cannot make a valid playlist: 2 segments of 2.0 s last less than three target durations (6 s)"),
        ("location={root} part-duration=3000000000", "llhlssink cannot make a valid playlist: parts of 3.0 s are longer than segments of 2.0 s"),
    ])
    func settingsThatCannotWorkFailTheStart(properties: String, message: String) throws {
        let root = try temporaryDirectory("llhlssink-refused").path
        let run = try PipelineRun.run("videotestsrc num-buffers=10 ! x264enc ! h264parse ! ll.video_0 "
                                      + "llhlssink name=ll \(properties.replacingOccurrences(of: "{root}", with: root))", timeout: 10)
        let error = try #require(run.error)
        #expect(error.source == "ll" && error.text == message, "\(error)")
    }

    /// Video pads take the lowest free index, and every pad goes with its release. (A second
    /// `audio` request is not made here: GStreamer 1.28 reports it as the caller's error, a
    /// critical, before the element is asked.)
    @Test func requestPadsAreNumberedAndReleased() throws {
        GStreamerSetup.ensure()
        let sink = try #require(gst_element_factory_make("llhlssink", nil))
        defer { gst_object_unref(sink) }
        let audio = gst_element_request_pad_simple(sink, "audio")
        #expect(audio != nil)
        let first = gst_element_request_pad_simple(sink, "video_%u"), second = gst_element_request_pad_simple(sink, "video_%u")
        #expect(first.map { String(cString: rc_object_name($0)) } == "video_0" && second.map { String(cString: rc_object_name($0)) } == "video_1")
        for pad in [audio, first, second].compactMap({ $0 }) {
            gst_element_release_request_pad(sink, pad)
            gst_object_unref(pad)
        }
        #expect(rc_element(sink).pointee.numsinkpads == 0)
    }

    /// Pushes frames `range` of 97 bytes lasting 1/30 s, a keyframe every `keyframeEvery`,
    /// frame k at `pts(k)` (default: exactly k/30 s).
    static func frames(_ harness: Harness, _ range: Range<Int>, keyframeEvery: Int = 10,
                       pts: (Int) -> UInt64 = { UInt64($0) * 33_333_333 }) {
        for k in range {
            harness.push([UInt8](repeating: 0x40, count: 97), pts: pts(k), duration: 33_333_333,
                         flags: k % keyframeEvery == 0 ? nil : GST_BUFFER_FLAG_DELTA_UNIT)
        }
    }

    /// A flushing seek back to 0 after 1.5 s: the rendition goes on a second past what it
    /// wrote, the segment after the jump follows a discontinuity, and the playlist keeps the
    /// rules and never goes back.
    @Test func aSeekBackGoesOnAfterADiscontinuity() throws {
        let folder = try temporaryDirectory("llhlssink-seek").path
        let harness = try Self.harness(folder: folder)
        Self.frames(harness, 0..<45)
        _ = gst_harness_push_event(harness.harness, gst_event_new_flush_start())
        _ = gst_harness_push_event(harness.harness, gst_event_new_flush_stop(1))
        var segment = GstSegment()
        gst_segment_init(&segment, GST_FORMAT_TIME)
        _ = gst_harness_push_event(harness.harness, gst_event_new_segment(&segment))
        Self.frames(harness, 0..<45)
        harness.pushEOS()
        harness.waitForSinkEOS()
        #expect(harness.errors.isEmpty && harness.endsOfStream == 1, "\(harness.errors)")
        let read = try ReadPlaylist(String(contentsOfFile: "\(folder)/video_0/index.m3u8", encoding: .utf8))
        #expect(read.violations() == [] && read.ended)
        let marked = read.segments.filter(\.discontinuity).map(\.sequence)
        // 1 s segments, 0 and 1 (half); the jump to 2.5 s; segments keep to the 1 s grid, so the
        // first keyframe past 3 s (frame 20 of the second run, 3.17 s) ends segment 2.
        #expect(read.segments.map(\.duration) == [1, 0.5, 0.66667, 0.83333] && marked == [2],
                "\(read.segments.map(\.duration)), after a discontinuity: \(marked)")
    }

    /// Timestamps in whole milliseconds, as matroskademux and flvdemux give them: frames of
    /// 33.333 ms start up to 0.667 ms before the last one's end. They follow on: 1 s
    /// segments of 30 frames, no discontinuity, as hlssink2 cuts them.
    @Test func millisecondTimestampsFollowOn() throws {
        let folder = try temporaryDirectory("llhlssink-ms").path
        let harness = try Self.harness(folder: folder)
        Self.frames(harness, 0..<90, keyframeEvery: 30) { UInt64((Double($0) * 1000 / 30).rounded()) * 1_000_000 }
        harness.pushEOS()
        harness.waitForSinkEOS()
        let read = try ReadPlaylist(String(contentsOfFile: "\(folder)/video_0/index.m3u8", encoding: .utf8))
        let durations = read.segments.map(\.duration)
        #expect(harness.errors.isEmpty && read.violations() == [] && read.ended, "\(harness.errors)")
        #expect(durations.count == 3 && durations.allSatisfy { abs($0 - 1) <= 0.002 } && !read.segments.contains(where: \.discontinuity),
                "segments \(durations), discontinuities at \(read.segments.filter(\.discontinuity).map(\.sequence))")
        print("millisecond timestamps: segments \(durations) s, none after a discontinuity")
    }

    /// New caps with another picture size while streaming: an error naming both formats.
    @Test func aFormatThatChangesWhileStreamingIsAnErrorNamingIt() throws {
        let harness = try Self.harness()
        Self.frames(harness, 0..<5)
        gst_harness_set_src_caps_str(harness.harness, Self.harnessCaps.replacingOccurrences(of: "width=64", with: "width=80"))
        Self.frames(harness, 5..<6)
        _ = harness.messages()
        #expect(harness.errors.first == "llhlssink: video_0: the format changed while streaming (avc1.42C01E 64x48 to "
                + "avc1.42C01E 80x48): a rendition keeps one init segment", "\(harness.errors)")
    }
}
