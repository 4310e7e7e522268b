// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
@testable import ReplayCast
import ReplayCastSupport
import Testing

/// rtmpreconnectsink's decisions that need no server: backoff, what a failure means, which
/// buffers go to a connection, what is kept while disconnected, and its start-up errors.
/// Against a real nginx-rtmp: Tests/system/rtmp_reconnect.py.
@Suite struct RtmpReconnectSinkTests {
    static let second: UInt64 = 1_000_000_000

    @Test func backoffDoublesUpToTheMaximum() {
        let policy = ReconnectPolicy(retries: nil, firstDelay: Self.second, maxDelay: 30 * Self.second, factor: 2)
        let delays = (1...8).map { policy.delay(beforeAttempt: $0) / Self.second }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(policy.totalDelay == nil)
        #expect(policy.allows(attempt: 1_000_000))
    }

    @Test func retriesBoundTheAttemptsAndTheirTotalWait() {
        let policy = ReconnectPolicy(retries: 3, firstDelay: Self.second, maxDelay: 30 * Self.second, factor: 2)
        #expect([1, 2, 3, 4].map(policy.allows(attempt:)) == [true, true, true, false])
        #expect(policy.totalDelay == 7 * Self.second)
        let gentle = ReconnectPolicy(retries: 4, firstDelay: 2 * Self.second, maxDelay: 4 * Self.second, factor: 1.5)
        #expect((1...4).map { gentle.delay(beforeAttempt: $0) } == [2, 3, 4, 4].map { $0 * Self.second })
        #expect(gentle.totalDelay == 13 * Self.second)
    }

    @Test(arguments: [
        (true, ResourceCode.openRead, nil, ConnectionFailure.unreachable),   // TCP connection refused
        (true, ResourceCode.notFound, nil, .unreachable),
        (true, ResourceCode.failed, UInt64?(0), .refused),                   // RTMP 'connect' rejected
        (true, ResourceCode.notAuthorized, nil, .refused),
        (true, 10, nil, .refused),                                           // closed before seen accepted
        (true, 10, UInt64?(300_000_000), .refused),                          // closed 0.3 s after: deny publish
        (true, 10, UInt64?(1_000_000_000), .lost),
        (true, 9, UInt64?(8_000_000_000), .lost),                            // server went away mid-stream
        (false, 1, UInt64?(8_000_000_000), .fatal),                          // the muxer's error
    ] as [(Bool, Int32, UInt64?, ConnectionFailure)])
    func failuresAreClassified(fromSink: Bool, code: Int32, acceptedFor: UInt64?, expected: ConnectionFailure) {
        #expect(ConnectionFailure.classify(fromSink: fromSink, resourceCode: code, acceptedFor: acceptedFor) == expected)
    }

    @Test func aFailureOutsideTheResourceDomainFromTheSinkIsRetried() {
        #expect(ConnectionFailure.classify(fromSink: true, resourceCode: nil, acceptedFor: nil) == .lost)
    }

    /// Video frames, 1 s apart so trimming is easy to state: `keyframes` are the indices of
    /// the keyframes; the rest are delta units.
    static func frames(_ count: Int, keyframes: Set<Int>, from start: Int = 0) -> [UnsafeMutablePointer<GstBuffer>] {
        (start..<start + count).map { i in
            let buffer = gst_buffer_new()!
            buffer.pointee.pts = GstClockTime(i) * GstClockTime(second)
            if !keyframes.contains(i) { buffer.pointee.mini_object.flags |= GST_BUFFER_FLAG_DELTA_UNIT.rawValue }
            return buffer
        }
    }

    static func pushed(_ admission: PublishGate.Admission) -> [GstClockTime] {
        guard case .push(let kept, let buffer) = admission else { return [] }
        let buffers = kept + [buffer]
        defer { buffers.forEach { gst_buffer_unref($0) } }
        return buffers.map { $0.pointee.pts / GstClockTime(second) }
    }

    @Test func aConnectionStartsAtAKeyframeAndAudioGoesAtOnce() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: false, keepDuration: 0)
        let awaited = gate.open(.connecting).awaitsKeyframe
        #expect(awaited, "a new connection awaits a keyframe")
        let sent = Self.frames(5, keyframes: [2]).map { Self.pushed(gate.admit($0, stream: 0)) }
        let dropped = gate.dropped
        #expect(sent == [[], [], [2], [3], [4]])
        #expect(dropped == 2)
        let audio = Self.pushed(gate.admit(Self.frames(1, keyframes: [0], from: 7)[0], stream: 1))
        #expect(audio == [7])
        let awaitedAgain = gate.open(.connected).awaitsKeyframe
        #expect(!awaitedAgain, "data already flows: acceptance does not restart the keyframe wait")
        let next = Self.pushed(gate.admit(Self.frames(1, keyframes: [], from: 5)[0], stream: 0))
        #expect(next == [5])
    }

    /// Held back while an SRT link's queue drains: video as GAP events with each frame's time,
    /// counted apart from what a lost connection drops, while audio goes on; video goes on
    /// from a keyframe.
    @Test func videoHeldBackWhileTheLinkDrainsThenFromAKeyframe() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: false, keepDuration: 0)
        _ = gate.open(.connected)
        let before = Self.pushed(gate.admit(Self.frames(1, keyframes: [0])[0], stream: 0))
        gate.draining = true
        let frame = GstClockTime(Self.second)
        let video = Self.frames(2, keyframes: [], from: 1).map { buffer in
            buffer.pointee.duration = frame / 30
            guard case .gap(let pts, let duration) = gate.admit(buffer, stream: 0) else { return [GstClockTime]() }
            return [pts / frame, duration]
        }
        let untimed = Self.frames(1, keyframes: [])[0]
        untimed.pointee.pts = GstClockTime.max
        guard case .held = gate.admit(untimed, stream: 0) else { Issue.record("a frame without a time leaves no GAP event"); return }
        let audio = Self.pushed(gate.admit(Self.frames(1, keyframes: [0], from: 1)[0], stream: 1))
        let (drained, dropped) = (gate.drained, gate.dropped)
        #expect(before == [0])
        #expect(video == [[1, frame / 30], [2, frame / 30]], "\(video)")
        #expect(audio == [1])
        #expect(drained == 3 && dropped == 0, "drained \(drained), dropped \(dropped)")
        gate.draining = false
        gate.awaitingKeyframe = true
        let after = Self.frames(3, keyframes: [4], from: 3).map { Self.pushed(gate.admit($0, stream: 0)) }
        let audioAfter = Self.pushed(gate.admit(Self.frames(1, keyframes: [0], from: 3)[0], stream: 1))
        #expect(after == [[], [4], [5]], "\(after)")
        #expect(audioAfter == [3])
    }

    @Test func droppedWhileClosedAndAfterTheStreamEnded() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: false, keepDuration: 0)
        let held = Self.frames(3, keyframes: [0]).map { Self.pushed(gate.admit($0, stream: 0)) }
        let droppedWhileClosed = gate.dropped
        #expect(held == [[], [], []])
        #expect(droppedWhileClosed == 3)
        _ = gate.open(.connecting)
        gate.ended.insert(0)
        let afterEnd = Self.pushed(gate.admit(Self.frames(1, keyframes: [0], from: 3)[0], stream: 0))
        let droppedAfterEnd = gate.dropped
        #expect(afterEnd == [])
        #expect(droppedAfterEnd == 4)
    }

    @Test func keptMediaIsTrimmedByWholeKeyframeIntervalsAndSentFirst() {
        GStreamerSetup.ensure()
        var gate = PublishGate()
        gate.reset(streams: [0, 1], keep: true, keepDuration: 4 * GstClockTime(Self.second))
        // Keyframes every 3 s, frames 1 s apart: intervals go from the front while the oldest
        // starts more than 4 s before the newest frame, so at 9 s the one from 6 s is left.
        for frame in Self.frames(10, keyframes: [0, 3, 6, 9]) { _ = gate.admit(frame, stream: 0) }
        let keptVideo = gate.kept.count(0), droppedVideo = gate.dropped
        #expect(keptVideo == 4, "frames 6...9")
        #expect(droppedVideo == 6)
        for sample in Self.frames(4, keyframes: [0, 1, 2, 3], from: 5) { _ = gate.admit(sample, stream: 1) }
        let keptAudio = gate.kept.count(1)
        #expect(keptAudio == 3, "audio older than the oldest kept video (6 s) goes")
        // Still connecting: keep mode holds data until the server accepts the stream.
        let awaitedConnecting = gate.open(.connecting).awaitsKeyframe
        let whileConnecting = Self.pushed(gate.admit(Self.frames(1, keyframes: [], from: 10)[0], stream: 0))
        #expect(!awaitedConnecting)
        #expect(whileConnecting == [])
        let awaitedConnected = gate.open(.connected).awaitsKeyframe
        #expect(!awaitedConnected, "kept video starts with a keyframe: no new keyframe needed")
        let video = Self.pushed(gate.admit(Self.frames(1, keyframes: [], from: 11)[0], stream: 0))
        let audio = Self.pushed(gate.admit(Self.frames(1, keyframes: [0], from: 9)[0], stream: 1))
        #expect(video == [6, 7, 8, 9, 10, 11])
        #expect(audio == [6, 7, 8, 9])
    }

    @Test(arguments: [("", "No location set"), ("http://127.0.0.1/live/x", "is neither an RTMP nor an SRT URL")])
    func aMissingOrWrongLocationFailsTheStart(location: String, reason: String) throws {
        let run = try PipelineRun.run("videotestsrc num-buffers=5 ! x264enc ! h264parse ! rtmpreconnectsink name=rtmp "
                                      + (location.isEmpty ? "" : "location=\(location)"), timeout: 10)
        let error = try #require(run.error)
        #expect(error.source == "rtmp")
        #expect(error.text.contains(reason), "\(error.text)")
    }

    @Test func byteStreamH264IsRefusedNamingTheElementAndTheCaps() {
        #expect {
            _ = try PipelineRun.run("videotestsrc num-buffers=5 ! x264enc ! video/x-h264,stream-format=byte-stream "
                                    + "! rtmpreconnectsink name=rtmp location=rtmp://127.0.0.1:9/live/x connect-retries=0", timeout: 10)
        } throws: { error in
            "\(error)".contains("rtmp can't handle caps video/x-h264, stream-format=(string)byte-stream")
        }
    }

    @Test func noServerAndNoRetriesIsAnErrorNamingTheURL() throws {
        let url = "rtmp://127.0.0.1:9/live/x"
        let run = try PipelineRun.run("videotestsrc is-live=true num-buffers=30 ! x264enc tune=zerolatency ! h264parse "
                                      + "! rtmpreconnectsink name=rtmp location=\(url) connect-retries=0", timeout: 10)
        let error = try #require(run.error)
        #expect(error.source == "rtmp")
        #expect(error.text.hasPrefix("Could not connect to \(url): ") && error.text.contains("Connection refused"),
                "the URL, then rtmp2sink's error: \(error.text)")
        #expect(run.messages(from: "rtmp", named: "rtmp-reconnecting").isEmpty)
    }

    /// An srt:// location publishes MPEG-TS through srtsink, whose own reconnection is off:
    /// no receiver is the element's error after libsrt's 3 s connect timeout, not retries
    /// for ever. `stats` is null while it connects: no connection was made (srtsink's own
    /// would only warn that libsrt has no statistics for the socket).
    @Test func srtWithNoReceiverAndNoRetriesIsAnErrorNamingTheURL() throws {
        let url = "srt://127.0.0.1:9"
        let started = ContinuousClock.now
        var connecting: String?
        let run = try PipelineRun.run("videotestsrc is-live=true ! x264enc tune=zerolatency ! h264parse "
                                      + "! rtmpreconnectsink name=rtmp location=\(url) connect-retries=0", timeout: 15,
                                      whilePlaying: { pipeline in
            let sink = gst_bin_get_by_name(rc_bin(pipeline), "rtmp")!
            defer { gst_object_unref(sink) }
            g_usleep(1_000_000)
            connecting = ObjectProperties.structure(sink, "stats") { $0.map { String(cString: gst_structure_to_string($0)) } }
        })
        let elapsed = ContinuousClock.now - started
        let error = try #require(run.error)
        #expect(error.source == "rtmp")
        #expect(error.text.hasPrefix("Could not connect to \(url): "), "\(error.text)")
        #expect(error.text.contains("Connection does not exist") || error.text.contains("Connection timeout"), "\(error.text)")
        #expect(elapsed >= .seconds(2.5) && elapsed < .seconds(8), "libsrt's connect timeout is 3 s: \(elapsed)")
        #expect(connecting == nil, "\(connecting ?? "")")
    }

    /// A stop while srtsink connects to a receiver that does not answer: without waiting for
    /// the connect's outcome, however far into libsrt's 3 s connect timeout, and from PAUSED,
    /// where no buffer starts the connect (that wait, which rtmp2sink needs, took 2-4 s).
    /// 10-20 ms with GStreamer 1.22, 1-20 ms on Debian sid, where the last srtsink to go
    /// takes 1 s ending libsrt (RtmpReconnectSink's `retired`).
    @Test(arguments: [0, 10_000, 200_000, 1_000_000] as [UInt])
    func aStopWhileAnSrtConnectIsUnderWayIsQuick(afterMicroseconds: UInt) throws {
        GStreamerSetup.ensure()
        var parseError: UnsafeMutablePointer<GError>?
        let pipeline = try #require(gst_parse_launch("videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 "
                                                     + "! x264enc tune=zerolatency speed-preset=ultrafast ! h264parse "
                                                     + "! rtmpreconnectsink location=srt://127.0.0.1:9 connect-retries=0", &parseError))
        defer { gst_object_unref(pipeline) }
        func stop(from state: GstState) -> Duration {
            _ = gst_element_set_state(pipeline, state)
            g_usleep(gulong(afterMicroseconds))
            let started = ContinuousClock.now
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
            return ContinuousClock.now - started
        }
        let fromPlaying = stop(from: GST_STATE_PLAYING), fromPaused = stop(from: GST_STATE_PAUSED)
        #expect(fromPlaying < .milliseconds(500) && fromPaused < .milliseconds(500), "from PLAYING \(fromPlaying), from PAUSED \(fromPaused)")
    }

    /// Messages, errors and status screens name the location without an SRT passphrase or
    /// the empty fields a pipeline file's unset variables leave.
    @Test(arguments: [
        ("rtmp://127.0.0.1/live/x?key=", "rtmp://127.0.0.1/live/x?key="),
        ("srt://127.0.0.1:9000?latency=125&streamid=&passphrase=", "srt://127.0.0.1:9000?latency=125"),
        ("srt://10.0.0.5:9000?passphrase=0123456789ab&streamid=live/1", "srt://10.0.0.5:9000?passphrase=***&streamid=live/1"),
        ("srt://10.0.0.5:9000?streamid=&passphrase=", "srt://10.0.0.5:9000"),
    ])
    func locationsAreShownWithoutASecret(location: String, shown: String) {
        #expect(PublishTransport.shown(location) == shown)
    }

    /// Where a location publishes, as the RTMP socket search and the swarm's relays read it.
    @Test func theServerOfALocationIsItsHostAndPortWithDefaults() {
        let read = { (location: String) in PublishTransport.server(location).map { "\($0.host) \($0.port) \($0.rest)" } }
        #expect(read("rtmp://ingest.example.net/live/dev1") == "ingest.example.net 1935 /live/dev1")
        #expect(read("rtmps://ingest.example.net/app/key") == "ingest.example.net 443 /app/key")
        #expect(read("rtmp://127.0.0.1:19350/live/x") == "127.0.0.1 19350 /live/x")
        #expect(read("srt://127.0.0.1:9000?latency=125&streamid=live/dev1") == "127.0.0.1 9000 ?latency=125&streamid=live/dev1")
        #expect(read("srt://127.0.0.1") == nil, "SRT has no default port")
        #expect(read("http://127.0.0.1:80/") == nil)
    }

    /// A server never reached gets `connect-retries` attempts, whatever `retries` (for
    /// after a loss) says, then an error naming the URL, the count and the last reason.
    @Test func theFirstConnectionGetsConnectRetries() throws {
        let url = "rtmp://127.0.0.1:9/live/x"
        let run = try PipelineRun.run("videotestsrc is-live=true ! x264enc tune=zerolatency ! h264parse "
                                      + "! rtmpreconnectsink name=rtmp location=\(url) retries=0 connect-retries=2 "
                                      + "retry-delay=50000000", timeout: 10)
        let error = try #require(run.error)
        #expect(error.text.hasPrefix("Could not connect to \(url), gave up after 2 retries: Connection refused"), "\(error.text)")
        let attempts = run.messages(from: "rtmp", named: "rtmp-reconnecting").map { ($0["attempt"], $0["retries"]) }
        #expect(attempts.map(\.0) == [.uint64(1), .uint64(2)])
        #expect(attempts.map(\.1) == [.int(2), .int(2)], "the limit that applies: connect-retries")
    }
}
