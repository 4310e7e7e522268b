// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit
import ReplayCastTools
import Synchronization
import Testing

/// LatencyCheck against live broadcasts stamped with barcode-time=utc: an MPEG-TS stream over
/// UDP on loopback, and HLS on local disk.
@Suite(.serialized) struct LatencyCheckLiveTests {
    static let encode = "replaykitsrc is-live=true width=256 height=512 barcode-time=utc name=rk rk.video "
        + "! videoconvert ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 ! h264parse "

    init() { GStreamerSetup.ensure() }

    /// 3 s of a UDP stream, the first second skipped: about 60 frames in the findings, each
    /// read within a second of its capture, and an event for each of the 3 seconds. Paused
    /// for 600 ms (schedule), the broadcast captures nothing: that is the longest gap between
    /// the frames read, 600 ms and up to two frames' 33 ms (the frames either side fall on
    /// 33 ms slots); without the pause, a frame's 33 ms (a frame lost on the loopback allowed).
    /// Nothing damaged on the loopback: the longest stretch without any picture, in stream
    /// time, is within the same bounds.
    @Test(arguments: [false, true])
    func aStreamsFramesAreTimedAsTheyArrive(paused: Bool) async throws {
        let port = 20000 + Int(getpid() % 5000) + (paused ? 5000 : 0)
        let schedule = paused ? "schedule=\"1500ms:pause; 2100ms:resume\" " : ""
        let sender = try Broadcast(description: Self.encode.replacingOccurrences(of: "name=rk", with: schedule + "name=rk")
            + "! mpegtsmux ! udpsink host=127.0.0.1 port=\(port) sync=false")
        let seconds = Mutex(0)
        async let findings = LatencyCheck.measure("udp://127.0.0.1:\(port)", for: .seconds(3), skip: .seconds(1)) { event in
            if case .second = event { seconds.withLock { $0 += 1 } }
        }
        try await Task.sleep(for: .milliseconds(300))
        try await sender.start()
        let result = try await findings
        await sender.cancel()
        let latencies = try #require(result.latencies)
        #expect(result.kind == .stream && result.broadcastTime == 0)
        let frames = paused ? (32, 47) : (50, 65)
        #expect(latencies.count >= frames.0 && latencies.count <= frames.1, "\(latencies.count) frames in the last 2 s")
        #expect(latencies.median > 0 && latencies.maximum < 1, "median \(latencies.median) s, max \(latencies.maximum) s")
        #expect(seconds.withLock { $0 } == 3)
        let gap = try #require(result.longestGap)
        let expected = paused ? 0.595...0.672 : 0.030...0.07
        #expect(expected.contains(gap), "longest gap \(gap) s, \(expected) s expected")
        let pictureGap = try #require(result.longestPictureGap)
        #expect(expected.contains(pictureGap), "longest without any picture \(pictureGap) s, \(expected) s expected")
    }

    /// 1 s segments of 1 s GOPs: a segment is listed once the GOP after it is complete, so its
    /// first frame waits about 2 s. ReplayCastKit's playlists date a segment by its first
    /// frame's capture, so the program date gives the same latency.
    @Test func hlsSegmentsAreTimedFromTheirFirstFrame() async throws {
        let folder = try temporaryDirectory("latency-hls")
        let sender = try Broadcast(description: Self.encode + "! hlssink2 target-duration=1 playlist-length=0 max-files=0 "
            + "location=\(folder.path)/segment%05d.ts playlist-location=\(folder.path)/playlist.m3u8")
        let arrivals = Mutex<[LatencyCheck.SegmentArrival]>([])
        async let findings = LatencyCheck.measure("\(folder.path)/playlist.m3u8", for: .seconds(6)) { event in
            if case .segment(_, let arrival) = event { arrivals.withLock { $0.append(arrival) } }
        }
        try await sender.start()
        let result = try await findings
        await sender.cancel()
        let latencies = try #require(result.latencies)
        let listed = arrivals.withLock { $0 }
        #expect(result.kind == .hls && listed.count == latencies.count)
        #expect(latencies.count >= 3, "\(latencies.count) segments in 6 s")
        #expect(latencies.median > 1.8 && latencies.maximum < 2.8, "median \(latencies.median) s, max \(latencies.maximum) s")
        #expect(listed.allSatisfy { abs($0.duration - 1) < 0.05 })
        let dateErrors = listed.map { abs(($0.programDateLatency ?? 100) - $0.latency) }
        #expect(dateErrors.allSatisfy { $0 < 0.05 }, "program dates off capture by \(dateErrors) s")
    }

    /// An SRT listener no sender calls: the reading ends when its time is up (it waited for
    /// good: decodebin holds the pipeline's start until a stream comes), with no frame read.
    @Test(.timeLimit(.minutes(1))) func anSrtListenerNobodyCallsEndsOnTime() async throws {
        let port = 30000 + Int(getpid() % 5000)
        let started = ContinuousClock.now
        let result = try await LatencyCheck.measure("srt://127.0.0.1:\(port)?mode=listener", for: .milliseconds(1500)) { _ in }
        let took = ContinuousClock.now - started
        #expect(result.latencies == nil && result.read == 0 && result.longestGap == nil && result.longestPictureGap == nil)
        #expect(took >= .milliseconds(1500) && took < .seconds(4), "took \(took)")
    }

    /// A playlist that is not there, a remote one, and a stream whose server refuses every
    /// attempt (tried again every 500 ms for 1.5 s): each a failure naming the output.
    @Test func anOutputThatNeverAppearsIsAFailureNamingIt() async throws {
        for output in ["/nonexistent/playlist.m3u8", "http://127.0.0.1:1/playlist.m3u8", "rtmp://127.0.0.1:1/live/none"] {
            do {
                _ = try await LatencyCheck.measure(output, for: .milliseconds(1500)) { _ in }
                Issue.record("\(output): no failure")
            } catch {
                #expect(error.description.hasPrefix("\(output): "), "\(error.description)")
            }
        }
    }
}
