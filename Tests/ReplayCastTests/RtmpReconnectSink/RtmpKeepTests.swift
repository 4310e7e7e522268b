// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
@testable import ReplayCast
import ReplayCastSupport
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
        var gate = PublishGate()
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

    /// Seconds of what `buffers` held, oldest first; releases them.
    static func seconds(_ buffers: [UnsafeMutablePointer<GstBuffer>]) -> [GstClockTime] {
        defer { buffers.forEach { gst_buffer_unref($0) } }
        return buffers.map { $0.pointee.pts / Self.second }
    }

    /// The connection is accepted after a stream's last buffer but before its end: that
    /// stream's thread sends what was kept, then its end. (It did send the end alone, and
    /// the recording held no frame of the stream: CI on Debian 13, one run in many.)
    @Test func keptMediaGoesBeforeAnEndThatComesAfterTheConnectionOpens() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: true, keepDuration: 10 * Self.second)
        for frame in RtmpReconnectSinkTests.frames(3, keyframes: [0]) { _ = gate.admit(frame, stream: 0) }
        for sample in RtmpReconnectSinkTests.frames(3, keyframes: [0, 1, 2]) { _ = gate.admit(sample, stream: 1) }
        _ = gate.open(.connecting)
        let opening = gate.open(.connected)
        #expect(opening.ended.allSatisfy { $0 == nil }, "no stream has ended yet")
        let video = gate.end(0, seqnum: 1)
        let audio = gate.end(1, seqnum: 2)
        let seqnum = gate.eosSeqnum, keptAfter = gate.kept.isEmpty
        #expect(video.pushing && !video.allEnded && audio.allEnded && seqnum == 2)
        #expect(Self.seconds(video.kept) == [0, 1, 2])
        #expect(Self.seconds(audio.kept) == [0, 1, 2])
        #expect(keptAfter)
    }

    /// A stream that ends while the gate is shut has its end held back with what was kept;
    /// both go to the connection that opens the gate, and only to it. Another stream still
    /// running keeps its kept media for its own thread.
    @Test func anEndWhileShutGoesWithItsKeptMediaWhenTheGateOpens() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: true, keepDuration: 10 * Self.second)
        for frame in RtmpReconnectSinkTests.frames(3, keyframes: [0]) { _ = gate.admit(frame, stream: 0) }
        for sample in RtmpReconnectSinkTests.frames(2, keyframes: [0, 1]) { _ = gate.admit(sample, stream: 1) }
        _ = gate.open(.connecting)
        let audioEnd = gate.end(1, seqnum: 7)
        #expect(!audioEnd.pushing && audioEnd.kept.isEmpty && !audioEnd.allEnded)
        let opening = gate.open(.connected)
        #expect(opening.ended[0] == nil, "video still runs")
        #expect(Self.seconds(opening.ended[1]?.map(\.buffer) ?? []) == [0, 1])
        let video = RtmpReconnectSinkTests.pushed(gate.admit(RtmpReconnectSinkTests.frames(1, keyframes: [], from: 3)[0],
                                                             stream: 0))
        #expect(video == [0, 1, 2, 3])
        let again = gate.open(.connected)
        #expect(again.ended.allSatisfy { $0 == nil }, "the gate was open already")
    }

    /// Without keep, nothing is kept, but an end while shut still goes to the next connection.
    @Test func anEndWhileShutReachesTheNextConnection() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: false, keepDuration: 0)
        _ = gate.end(0, seqnum: 1)
        let opening = gate.open(.connecting)
        #expect(opening.ended[0].map(\.isEmpty) == true && opening.ended[1] == nil)
    }

    /// Five frames and eight AAC frames, parsed (parsers named `vp` and `ap`), into `el`.
    static let media = "videotestsrc pattern=black num-buffers=5 ! video/x-raw,width=320,height=240,framerate=30/1 "
        + "! x264enc speed-preset=ultrafast tune=zerolatency ! h264parse name=vp ! el.video "
        + "audiotestsrc num-buffers=8 samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 ! avenc_aac "
        + "! aacparse name=ap ! el.audio "

    /// The packets of each stream nginx recorded as `name`, as ffprobe counts them, sorted.
    static func packets(_ server: RtmpServer, _ name: String) throws -> String {
        try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                            "stream=codec_name,nb_read_packets", "-of", "csv=p=0",
                                            server.recording(name).path]).output
            .split(separator: "\n").sorted().joined(separator: " ")
    }

    /// Five frames and eight AAC frames end long before the connection is made: the
    /// recording on a real nginx-rtmp holds all of them, as flvmux ! rtmp2sink's does.
    @Test func aStreamThatEndsBeforeTheConnectionIsSentWhole() throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let ours = try PipelineRun.run(Self.media + "rtmpreconnectsink name=el while-disconnected=keep location=\(server.url("ours"))")
        let peer = try PipelineRun.run(Self.media + "flvmux name=el streamable=true ! rtmp2sink sync=false location=\(server.url("peer"))")
        server.stop()
        #expect(ours.reachedEOS && ours.error == nil, "\(String(describing: ours.error))")
        #expect(peer.reachedEOS && peer.error == nil, "\(String(describing: peer.error))")
        let counts = try [Self.packets(server, "ours"), Self.packets(server, "peer")]
        #expect(counts[0].hasPrefix("aac,") && counts[0].hasSuffix("h264,5"), "ours: \(counts[0])")
        #expect(counts[0] == counts[1], "ours: \(counts[0]), rtmp2sink's: \(counts[1])")
    }

    /// Every buffer is kept while the server is down; then it comes up, and the streams' ends
    /// reach the element around the moment the connection is accepted: held (a probe) until
    /// it is, or, for audio with `audioEndsWhileShut`, at once, before it is. Either way the
    /// recording holds every frame, as `aStreamThatEndsBeforeTheConnectionIsSentWhole`'s.
    @Test(arguments: [false, true]) func endsAroundTheAcceptanceLoseNothing(audioEndsWhileShut: Bool) throws {
        let server = try RtmpServer()
        server.stop()
        defer { server.stop() }
        let passed = Locked([String: Int]())
        let run = try PipelineRun.run(Self.media + "rtmpreconnectsink name=el while-disconnected=keep connect-retries=-1 "
                                      + "retry-delay=200000000 backoff-factor=1 location=\(server.url("ours"))", timeout: 30,
                                      prepare: { pipeline in
            for (parser, holdsEnd) in [("vp", true), ("ap", !audioEndsWhileShut)] {
                EndHold.attach(pipeline, parser: parser, holdsEnd: holdsEnd, passed: passed)
            }
        }, whilePlaying: { _ in
            let deadline = Date().addingTimeInterval(10)
            while passed.withLock({ $0["vp", default: 0] < 5 || $0["ap", default: 0] < 8 }) && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            try? server.start()
        })
        server.stop()
        #expect(run.reachedEOS && run.error == nil, "\(String(describing: run.error))")
        let counts = try Self.packets(server, "ours")
        #expect(counts == "aac,9 h264,5", "ours: \(counts)")
    }
}

/// A probe on a parser's source pad that counts its buffers and, when `holdsEnd`, holds its
/// EOS until the element `el` says it is connected (at most 10 s).
private final class EndHold {
    let name: String
    let element: UnsafeMutablePointer<GstElement>
    let holdsEnd: Bool
    let passed: Locked<[String: Int]>

    private init(name: String, element: UnsafeMutablePointer<GstElement>, holdsEnd: Bool, passed: Locked<[String: Int]>) {
        self.name = name
        self.element = element
        self.holdsEnd = holdsEnd
        self.passed = passed
    }

    deinit { gst_object_unref(element) }

    static func attach(_ pipeline: UnsafeMutablePointer<GstElement>, parser: String, holdsEnd: Bool,
                       passed: Locked<[String: Int]>) {
        let bin = rc_bin(pipeline)
        let source = gst_bin_get_by_name(bin, parser)!
        let hold = EndHold(name: parser, element: gst_bin_get_by_name(bin, "el")!, holdsEnd: holdsEnd, passed: passed)
        let pad = gst_element_get_static_pad(source, "src")!
        let mask = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        gst_pad_add_probe(pad, mask, { _, info, context in
            Unmanaged<EndHold>.fromOpaque(context!).takeUnretainedValue().saw(info!)
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(hold).toOpaque(), { Unmanaged<EndHold>.fromOpaque($0!).release() })
        gst_object_unref(pad)
        gst_object_unref(source)
    }

    private func saw(_ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            passed.withLock { $0[name, default: 0] += 1 }
            return
        }
        let event = info.pointee.data.assumingMemoryBound(to: GstEvent.self)
        guard holdsEnd, rc_event_type(event) == GST_EVENT_EOS else { return }
        let connected = gint(RC_PUBLISH_CONNECTED.rawValue)
        let deadline = Date().addingTimeInterval(10)
        while ObjectProperties.enumValue(element, "connection", type: RtmpReconnectSink.connection.type) != connected,
              Date() < deadline {
            g_usleep(10_000)
        }
    }
}
