// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCastSupport
import Testing

extension CapsChangeTests {
    /// The picture size changes in the middle of a broadcast (the encoder starts again with a
    /// new SPS and PPS, so the stream's codec_data changes): the recording on a real
    /// nginx-rtmp has every frame at its size, as flvmux ! rtmp2sink's does, on one
    /// connection.
    @Test func rtmpreconnectsinkSendsTheNewPictureSizeAsRtmp2sinkDoes() throws {
        let server = try RtmpServer()
        defer { server.stop() }
        func publish(_ name: String, _ output: String) throws -> PipelineRun {
            let description = "videotestsrc num-buffers=90 name=src ! video/x-raw,framerate=30/1 ! videoscale "
                + "! capsfilter name=size caps=video/x-raw,width=64,height=48 "
                + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! h264parse ! el.video "
                + output.replacingOccurrences(of: "URL", with: server.url(name))
            return try PipelineRun.run(description, prepare: { pipeline in
                let source = gst_bin_get_by_name(rc_bin(pipeline), "src")!, size = gst_bin_get_by_name(rc_bin(pipeline), "size")!
                // The pipeline keeps the capsfilter while the probe can run; an address is Sendable.
                let filter = UInt(bitPattern: size)
                gst_object_unref(size)
                defer { gst_object_unref(source) }
                let pad = gst_element_get_static_pad(source, "src")!
                defer { gst_object_unref(pad) }
                let frames = Locked(0)
                PadProbe.add(to: pad, GST_PAD_PROBE_TYPE_BUFFER) { _, _ in
                    if frames.withLock({ $0 += 1; return $0 }) == 46 {
                        ObjectProperties.set(UnsafeMutableRawPointer(bitPattern: filter)!, "caps",
                                             caps: "video/x-raw,width=128,height=96")
                    }
                }
            })
        }
        let ours = try publish("ours", "rtmpreconnectsink name=el location=URL")
        let peer = try publish("peer", "flvmux name=el streamable=true ! rtmp2sink location=URL")
        server.stop()
        for (name, run) in [("ours", ours), ("peer", peer)] {
            #expect(run.reachedEOS && run.error == nil, "\(name): \(String(describing: run.error))")
        }
        #expect(ours.messages(from: "el", named: "rtmp-connected").count == 1)
        #expect(ours.messages(from: "el", named: "rtmp-disconnected").isEmpty, "one connection throughout")
        let sizes = try ["ours", "peer"].map { name in
            let probe = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                            "frame=width,height", "-of", "csv=p=0", server.recording(name).path])
            // One line per frame ("64,48"); side data adds lines without a size.
            return probe.output.split(separator: "\n").compactMap { line -> String? in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count >= 2, Int(fields[0]) != nil, Int(fields[1]) != nil else { return nil }
                return "\(fields[0])x\(fields[1])"
            }
        }
        let expected = Array(repeating: "64x48", count: 45) + Array(repeating: "128x96", count: 45)
        #expect(sizes[0] == expected, "ours: \(sizes[0].count) frames, \(Set(sizes[0]))")
        #expect(sizes[0] == sizes[1], "rtmp2sink's recording: \(sizes[1].count) frames")
    }
}

extension HostileInputTests {
    /// rtmpreconnectsink in a harness, its video pad fed: no server on the port (its first
    /// attempt refused, the next one 10 s away), keeping the last second to send later.
    static func disconnectedPublisher(_ stream: String) throws -> Harness {
        try keepingPublisher("rtmp://127.0.0.1:9/live/\(stream)")
    }

    /// rtmpreconnectsink in a harness publishing to `location`, its video pad fed, keeping
    /// the last second while disconnected, a failed attempt retried 10 s later.
    static func keepingPublisher(_ location: String) throws -> Harness {
        GStreamerSetup.ensure()
        let sink = try #require(gst_element_factory_make("rtmpreconnectsink", nil))
        for (name, value) in [("location", location), ("while-disconnected", "keep"),
                              ("buffer-duration", "1000000000"), ("retry-delay", "10000000000")] {
            gst_util_set_object_arg(rc_gobject(sink), name, value)
        }
        let harness = Harness(sink: sink, sinkPad: "video",
                              caps: "video/x-h264,stream-format=avc,alignment=au,width=64,height=48,framerate=30/1")
        gst_object_unref(sink)
        return harness
    }

    /// 200 odd access units of `seed`, keyframes and delta units at random; how many were taken.
    static func pushOddAccessUnits(_ harness: Harness, seed: UInt64) -> Int {
        var keyframes = Seeded(state: seed &+ 1)
        var taken = 0
        for buffer in oddBuffers(seed: seed, count: 200, bytesPerFrame: 97, rate: 30, framesPerBuffer: 3) {
            var flags = buffer.flags?.rawValue ?? 0
            if keyframes.next(3) != 0 { flags |= GST_BUFFER_FLAG_DELTA_UNIT.rawValue }
            let bytes = (0..<buffer.bytes).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ Int(seed)) }
            if harness.push(bytes, pts: buffer.pts, flags: GstBufferFlags(rawValue: flags)) == GST_FLOW_OK { taken += 1 }
        }
        return taken
    }

    /// Odd H.264 access units (empty, short, random sizes; missing, repeated, backwards and
    /// huge timestamps; keyframes and delta units at random, DISCONT and GAP) into
    /// rtmpreconnectsink while no server answers and it keeps media to send later: every
    /// buffer is taken, nothing is an error, and EOS still ends the stream.
    @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
    func rtmpreconnectsinkKeepsOddAccessUnitsWhileDisconnectedAndEnds(seed: UInt64) throws {
        let harness = try Self.disconnectedPublisher("hostile")
        let taken = Self.pushOddAccessUnits(harness, seed: seed)
        harness.pushEOS()
        harness.waitForSinkEOS()
        #expect(taken == 200, "every buffer taken: \(taken) of 200")
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        // At least one: the element posts its EOS again on each return to PLAYING, and the
        // harness's start can pass through PLAYING twice on a loaded machine.
        #expect(harness.endsOfStream >= 1, "EOS without a connection")
    }

    /// The same odd access units published over SRT to a real srt-live-transmit, where they
    /// go through h264parse and mpegtsmux (over RTMP, while disconnected, they only wait):
    /// every buffer is taken and nothing is an error. The harness then releases the video
    /// pad while the attempt is still open, and stops the element: the attempt, closed after
    /// the pad is gone, once unlinked the freed pad (a GStreamer-CRITICAL, fatal here).
    @Test(arguments: [UInt64(1), 42])
    func rtmpreconnectsinkTakesOddAccessUnitsOverSrtAndLetsItsPadGo(seed: UInt64) throws {
        let receiver = try SrtReceiver()
        defer { receiver.stop() }
        let harness = try Self.keepingPublisher(receiver.url)
        let taken = Self.pushOddAccessUnits(harness, seed: seed)
        usleep(500_000)
        _ = harness.messages()
        #expect(taken == 200, "every buffer taken: \(taken) of 200")
        #expect(harness.errors.isEmpty, "\(harness.errors)")
    }
}

extension PropertyThrashTests {
    /// rtmpreconnectsink's reconnection policy (retries, delays, backoff, what to keep while
    /// disconnected) written while it streams to a real nginx-rtmp: the connection it made
    /// at the start is neither dropped nor made again, and every frame reaches the server.
    @Test func rtmpreconnectsinkKeepsItsConnection() throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let description = "videotestsrc num-buffers=60 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
            + "! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! h264parse ! el.video "
            + "t. ! queue ! fakesink sync=true name=out "
            + "rtmpreconnectsink name=el location=\(server.url("thrash"))"
        // location applies from the next start: the only valid value here is the server's own.
        let thrashed = try Self.play(description, targets: ["el"], strings: ["location": [server.url("thrash")]])
        Self.expectThrashedWhilePlaying(thrashed, "rtmpreconnectsink", properties: 10)
        #expect(thrashed.out.buffers.count == 60)
        #expect(thrashed.run.messages(from: "el", named: "rtmp-connected").count == 1)
        for lost in ["rtmp-disconnected", "rtmp-reconnecting", "rtmp-reconnected"] {
            #expect(thrashed.run.messages(from: "el", named: lost).isEmpty, "\(lost) while connected")
        }
        server.stop()
        let probe = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                        "-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0",
                                                        server.recording("thrash").path])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,60", "the recording: \(probe.output)")
        print("rtmpreconnectsink thrash: \(thrashed.written)")
    }

    /// The same over SRT, to a real srt-live-transmit: one connection, every frame recorded.
    @Test func rtmpreconnectsinkKeepsItsSrtConnection() throws {
        let receiver = try SrtReceiver()
        defer { receiver.stop() }
        let description = "videotestsrc num-buffers=60 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
            + "! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! h264parse ! el.video "
            + "t. ! queue ! fakesink sync=true name=out "
            + "rtmpreconnectsink name=el location=\(receiver.url)"
        let thrashed = try Self.play(description, targets: ["el"], strings: ["location": [receiver.url]])
        Self.expectThrashedWhilePlaying(thrashed, "rtmpreconnectsink over SRT", properties: 10)
        #expect(thrashed.out.buffers.count == 60)
        #expect(thrashed.run.messages(from: "el", named: "rtmp-connected").count == 1)
        for lost in ["rtmp-disconnected", "rtmp-reconnecting", "rtmp-reconnected"] {
            #expect(thrashed.run.messages(from: "el", named: lost).isEmpty, "\(lost) while connected")
        }
        // srt-live-transmit writes out what it holds once the caller is gone.
        usleep(500_000)
        receiver.stop()
        let probe = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                        "-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0",
                                                        receiver.recording(1).path])
        // MPEG-TS lists the stream under its program too.
        #expect(Set(probe.output.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) })
            == ["h264,60"], "the recording: \(probe.output)")
        #expect(!FileManager.default.fileExists(atPath: receiver.recording(2).path), "one connection")
        print("rtmpreconnectsink over SRT thrash: \(thrashed.written)")
    }
}
