// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import MediaKernels
@testable import ReplayCast
import ReplayCastSupport
import Testing

/// New caps between two buffers, as a device switching its audio route or a screen turning
/// does: the element follows them from the next buffer on, as GStreamer's own peer does.
@Suite struct CapsChangeTests {
    struct AudioSection {
        let format: SampleFormat
        let rate: Int
        let channels: Int
        let amplitude: Double
        var caps: String {
            "audio/x-raw,format=\(Signals.capsName(format)),layout=interleaved,rate=\(rate),channels=\(channels)"
        }
    }

    /// 0.3 s per section, in 10 ms buffers, timestamps running on across the changes.
    static func meter(_ description: String, _ sections: [AudioSection]) -> [Fields] {
        let harness = Harness(description, caps: sections[0].caps)
        var pts: UInt64 = 0
        for section in sections {
            gst_harness_set_src_caps_str(harness.harness, section.caps)
            let frames = section.rate / 100
            let samples = Signals.sine(frequency: 997, amplitude: section.amplitude, rate: section.rate,
                                       frames: frames * 30, channels: section.channels)
            let bytes = Signals.encode(samples, as: section.format)
            let size = frames * section.channels * section.format.bytesPerSample
            for k in 0..<30 {
                harness.push(Array(bytes[(k * size)..<((k + 1) * size)]), pts: pts, duration: 10_000_000)
                harness.discardOutput()
                pts += 10_000_000
            }
        }
        harness.pushEOS()
        MessagePoster.flush()
        let messages = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        return messages.filter { $0.name == "volumemeter" || $0.name == "level" }
    }

    @Test func volumemeterFollowsFormatRateAndChannelsLikeLevel() {
        let sections = [AudioSection(format: .s16le, rate: 48000, channels: 2, amplitude: 0.5),
                        AudioSection(format: .f32le, rate: 44100, channels: 1, amplitude: 0.25),
                        AudioSection(format: .s16le, rate: 24000, channels: 2, amplitude: 0.125)]
        let ours = Self.meter("volumemeter interval=100000000", sections)
        let peer = Self.meter("level interval=100000000", sections)
        #expect(ours.count == 9 && peer.count >= ours.count, "three 100 ms intervals per section: \(ours.count), level \(peer.count)")
        let expected = [-6.02, -12.04, -18.06]
        for (index, message) in ours.enumerated() {
            let peaks = message.doubles("peak"), theirs = peer[index].doubles("peak")
            #expect(peaks.count == sections[index / 3].channels && peaks.count == theirs.count, "interval \(index): \(peaks)")
            for (ours, level) in zip(peaks, theirs) {
                #expect(abs(ours - expected[index / 3]) < 0.05 && abs(ours - level) < 0.01, "interval \(index): \(ours) dB, level \(level) dB")
            }
        }
    }

    /// The main picture changes size twice: the output follows it as compositor's does
    /// (GstVideoAggregator 1.22 drops the frame queued before new caps and shows the next
    /// one in its place), each frame the size of its main picture and drawn from it, the last
    /// one repeated until the end.
    @Test func pipcompositorFollowsTheMainPicturesSizeAsCompositorDoes() {
        func frames(_ factory: String) -> [(size: Int, luma: UInt8)] {
            let harness = Harness(factory: factory, sinkPad: "sink_0", caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1")
            gst_harness_play(harness.harness)
            var pts: UInt64 = 0
            for (width, height) in [(160, 120), (320, 240), (96, 64)] {
                gst_harness_set_src_caps_str(harness.harness, "video/x-raw,format=NV12,width=\(width),height=\(height),framerate=30/1")
                for _ in 0..<3 {
                    harness.push([UInt8](repeating: UInt8(width / 2), count: width * height * 3 / 2), pts: pts, duration: 33_333_333)
                    pts += 33_333_333
                }
            }
            harness.pushEOS()
            var out: [(size: Int, luma: UInt8)] = []
            harness.pullUntilEOS { frame in _ = frame.withReadableBytes { out.append(($0.count, $0[$0.count / 3])) } }
            _ = harness.messages()
            #expect(harness.errors.isEmpty, "\(factory): \(harness.errors)")
            return out
        }
        let ours = frames("pipcompositor"), peer = frames("compositor")
        #expect(ours.count == 9, "a frame per input frame: \(ours.count)")
        #expect(ours.map(\.size) == [28800, 28800, 28800, 115200, 115200, 9216, 9216, 9216, 9216], "\(ours.map(\.size))")
        #expect(ours.map(\.size) == peer.map(\.size) && ours.map(\.luma) == peer.map(\.luma),
                "compositor: \(peer.map(\.size)) \(peer.map(\.luma)), ours: \(ours.map(\.luma))")
        #expect(ours.map(\.luma) == [80, 80, 80, 160, 160, 48, 48, 48, 48], "each frame from its main picture: \(ours.map(\.luma))")
    }

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

