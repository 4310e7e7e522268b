// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
@testable import ReplayCast
import Testing

/// while-disconnected=keep loses nothing a connection can still take: streams are kept in
/// running time (each has its own segment), and a stream that ends before the first
/// connection is made is sent whole once it is.
@Suite struct RtmpKeepTests {
    static let second = GstClockTime(RtmpReconnectSinkTests.second)

    /// x264enc's segment starts at 1000 hours, an AAC encoder's at 0: the same instants. The
    /// audio encoder's first outputs arrive before the first keyframe.
    @Test func keptStreamsMeetInRunningTimeAndEarlyAudioWaitsForTheKeyframe() {
        GStreamerSetup.ensure()
        var gate = RtmpGate()
        gate.reset(streams: [0, 1], keep: true, keepDuration: 10 * Self.second)
        let offset = 1000 * 3600 * Self.second
        gate.segments[0].start = offset
        for sample in RtmpReconnectSinkTests.frames(3, keyframes: [0, 1, 2]) { _ = gate.admit(sample, stream: 1) }
        let audioBeforeVideo = gate.kept.count(1)
        let video = RtmpReconnectSinkTests.frames(4, keyframes: [0])
        for frame in video { frame.pointee.pts += offset }
        for frame in video { _ = gate.admit(frame, stream: 0) }
        _ = gate.admit(RtmpReconnectSinkTests.frames(1, keyframes: [0], from: 3)[0], stream: 1)
        let keptVideo = gate.kept.count(0), keptAudio = gate.kept.count(1), dropped = gate.dropped
        #expect(audioBeforeVideo == 3, "audio waits for the first keyframe")
        #expect(keptVideo == 4 && keptAudio == 4 && dropped == 0, "video \(keptVideo), audio \(keptAudio), dropped \(dropped)")
        _ = gate.open(.connected)
        let audio = RtmpReconnectSinkTests.pushed(gate.admit(RtmpReconnectSinkTests.frames(1, keyframes: [0], from: 4)[0],
                                                             stream: 1))
        #expect(audio == [0, 1, 2, 3, 4])
    }

    /// Five frames and eight AAC frames end long before the connection is made: the
    /// recording on a real nginx-rtmp holds all of them, as flvmux ! rtmp2sink's does.
    @Test func aStreamThatEndsBeforeTheConnectionIsSentWhole() throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let media = "videotestsrc pattern=black num-buffers=5 ! video/x-raw,width=320,height=240,framerate=30/1 "
            + "! x264enc speed-preset=ultrafast tune=zerolatency ! h264parse ! el.video "
            + "audiotestsrc num-buffers=8 samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 ! avenc_aac "
            + "! aacparse ! el.audio "
        let ours = try PipelineRun.run(media + "rtmpreconnectsink name=el while-disconnected=keep location=\(server.url("ours"))")
        let peer = try PipelineRun.run(media + "flvmux name=el streamable=true ! rtmp2sink sync=false location=\(server.url("peer"))")
        server.stop()
        #expect(ours.reachedEOS && ours.error == nil, "\(String(describing: ours.error))")
        #expect(peer.reachedEOS && peer.error == nil, "\(String(describing: peer.error))")
        let counts = try ["ours", "peer"].map { name in
            try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                "stream=codec_name,nb_read_packets", "-of", "csv=p=0",
                                                server.recording(name).path]).output
                .split(separator: "\n").sorted().joined(separator: " ")
        }
        #expect(counts[0].hasPrefix("aac,") && counts[0].hasSuffix("h264,5"), "ours: \(counts[0])")
        #expect(counts[0] == counts[1], "ours: \(counts[0]), rtmp2sink's: \(counts[1])")
    }
}
