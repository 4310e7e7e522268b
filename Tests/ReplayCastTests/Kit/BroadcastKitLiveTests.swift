// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import HLSPackaging
import ReplayCastKit
import ReplayKitModel
import Testing

/// ReplayCastKit's `Broadcast` driving real pipelines in real time: typed events, lifecycle
/// controls, errors, a clean stop that finishes HLS, cancellation.
@Suite(.serialized) struct BroadcastKitLiveTests {
    static let broadcastSource = "replaykitsrc name=rk rk.video ! fakesink sync=true rk.audio_app ! queue ! mix.app "
        + "rk.audio_mic ! queue ! mix.mic dualmixer name=mix ! volumemeter name=meter"

    init() { GStreamerSetup.ensure() }

    @Test func meterEventsArriveAtTheConfiguredInterval() async throws {
        let broadcast = try Broadcast(description: Self.broadcastSource + " interval=250000000 loudness=true ! fakesink sync=true")
        try await broadcast.start()
        async let events = Self.collect(broadcast)
        try await Task.sleep(for: .seconds(3))
        try broadcast.resetLoudness()
        #expect(try await broadcast.stop() == .endOfStream)
        #expect(throws: BroadcastError.notRunning("reset the loudness")) { try broadcast.resetLoudness() }
        let meters = await events.compactMap { event -> MeterReading? in if case .meter(let m) = event { m } else { nil } }
        // 3 s of broadcast at 4 intervals per second, ±1 per second; the last may be partial.
        let whole = meters.filter { $0.duration == .milliseconds(250) }
        #expect(abs(whole.count - 12) <= 3, "\(whole.count) whole intervals in 3 s")
        let steps = zip(whole, whole.dropFirst()).map { $1.runningTime - $0.runningTime }
        #expect(steps.count == whole.count - 1 && steps.allSatisfy { $0 == .milliseconds(250) }, "\(steps)")
        #expect(whole.allSatisfy { $0.element == "meter" && $0.rms.count == 2 && $0.peak.count == 2 && $0.momentary != nil })
        #expect(whole.allSatisfy { ($0.maxMomentary ?? -200) >= ($0.momentary ?? 0) && $0.loudnessRange != nil
                                   && $0.maxTruePeak.count == 2 })
        #expect(whole.allSatisfy { $0.rms.allSatisfy { $0 > -40 && $0 < -5 } }, "app music and mic speech are audible")
    }

    @Test func pauseResumeFinishAndChangesArriveInOrder() async throws {
        let broadcast = try Broadcast(description: Self.broadcastSource + " ! fakesink sync=true")
        try await broadcast.start()
        async let events = Self.collect(broadcast)
        for step in [{ try broadcast.pause() }, { try broadcast.resume() }, { try broadcast.apply(.orientation(.left)) },
                     { try broadcast.apply(.micFormat(rate: 24000, channels: nil)) }, { try broadcast.apply(.callStart) },
                     { try broadcast.finish() }] as [() throws -> Void] {
            try await Task.sleep(for: .milliseconds(300))
            try step()
        }
        #expect(await broadcast.waitUntilEnded() == .endOfStream)
        let lifecycle = await events.compactMap { event -> String? in
            switch event {
            case .started(let setup): "started \(setup.device) \(setup.width)x\(setup.height)"
            case .paused: "paused"
            case .resumed: "resumed"
            case .orientationChanged(let orientation, _): "orientation \(orientation)"
            case .micFormatChanged(let rate, let channels, _): "mic \(rate) \(channels.map(String.init) ?? "-")"
            case .changed(let action, _): "\(action)"
            case .finished: "finished"
            case .endOfStream: "end"
            default: nil
            }
        }
        #expect(lifecycle == ["started iphone-11-ios17 1242x2688", "paused", "resumed", "orientation left", "mic 24000 -",
                              "call-start", "finished", "end"])
        #expect(throws: BroadcastError.notRunning("pause")) { try broadcast.pause() }
    }

    @Test func anErrorArrivesTypedAndEndsTheStream() async throws {
        // The mic switches to 24 kHz after 0.5 s, which the capsfilter refuses: replaykitsrc
        // fails with not-negotiated while running.
        let broadcast = try Broadcast(description: "replaykitsrc name=rk schedule=\"500ms:mic-format=24000\" "
                                      + "rk.audio_mic ! audio/x-raw,rate=48000 ! fakesink sync=true")
        try await broadcast.start()
        let events = await Self.collect(broadcast)
        let errors = events.compactMap { event -> BroadcastIssue? in if case .error(let issue) = event { issue } else { nil } }
        #expect(errors.count == 1)
        let issue = try #require(errors.first)
        #expect(issue.element == "rk" && issue.domain == "gst-stream-error-quark" && issue.debug?.contains("not-negotiated") == true,
                "\(issue) \(issue.debug ?? "")")
        if case .error = events.last {} else { Issue.record("the error is the last event, got \(String(describing: events.last))") }
        #expect(await broadcast.waitUntilEnded() == .failed(issue))
        #expect(!broadcast.isRunning)
    }

    /// Live 160x120 H.264, a keyframe every half second, for an HLS sink.
    static let liveH264 = "videotestsrc is-live=true ! video/x-raw,width=160,height=120,framerate=30/1 "
        + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! h264parse"

    /// Runs `description` for 2.5 s and stops it, which must end the stream: the broadcast and
    /// the segments its events reported.
    static func segmentsWritten(by description: String) async throws -> (Broadcast, [HLSSegment]) {
        let broadcast = try Broadcast(description: description)
        try await broadcast.start()
        async let events = collect(broadcast)
        try await Task.sleep(for: .milliseconds(2500))
        #expect(try await broadcast.stop() == .endOfStream)
        let segments = await events.compactMap { event -> HLSSegment? in if case .segmentWritten(let s) = event { s } else { nil } }
        return (broadcast, segments)
    }

    @Test func stopFinishesTheHLSPlaylist() async throws {
        let folder = try temporaryDirectory("kit-hls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (broadcast, segments) = try await Self.segmentsWritten(
            by: Self.liveH264 + " ! hlssink2 name=hls target-duration=1 playlist-length=0 max-files=0 "
                + "location=\(folder.path)/segment%05d.ts playlist-location=\(folder.path)/playlist.m3u8")
        let playlist = try String(contentsOf: folder.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-ENDLIST"))
        let entries = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
        #expect(entries.count >= 3 && segments.count == entries.count, "\(segments.count) segment events, \(entries.count) in the playlist")
        #expect(segments.allSatisfy { FileManager.default.fileExists(atPath: $0.location) })
        #expect(try await broadcast.stop() == .endOfStream, "a second stop returns the same ending")
    }

    /// llhlssink's segments arrive as hlssink2's do, with their rendition, size and length:
    /// one per segment its playlist lists, numbered as the playlist numbers them.
    @Test func llhlssinkSegmentsArriveWithTheirRendition() async throws {
        let folder = try temporaryDirectory("kit-llhls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, segments) = try await Self.segmentsWritten(
            by: Self.liveH264 + " ! ll.video_0 llhlssink name=ll location=\(folder.path) target-duration=1 playlist-length=0")
        let playlist = try ReadPlaylist(String(contentsOf: folder.appendingPathComponent("video_0/index.m3u8"), encoding: .utf8))
        #expect(playlist.ended && playlist.segments.count >= 3, "\(playlist.segments.count) segments listed")
        #expect(segments.map(\.index) == playlist.segments.map { Int($0.sequence) }
                && segments.allSatisfy { $0.element == "ll" && $0.rendition == "video_0" && ($0.bytes ?? 0) > 0 },
                "\(segments)")
        for (event, listed) in zip(segments, playlist.segments) {
            let seconds = event.duration?.seconds ?? 0
            #expect(event.location == folder.appendingPathComponent("video_0/\(listed.uri)").path && abs(seconds - listed.duration) < 0.001,
                    "\(event) for \(listed.uri), \(listed.duration) s")
        }
        print("llhlssink through the Kit: \(segments.count) segment events for \(playlist.segments.count) listed segments")
    }

    @Test func cancellingTheConsumingTaskStopsThePipeline() async throws {
        let broadcast = try Broadcast(description: Self.broadcastSource + " interval=100000000 ! fakesink sync=true")
        try await broadcast.start()
        let consumer = Task { await Self.collect(broadcast).count }
        try await Task.sleep(for: .milliseconds(700))
        consumer.cancel()
        #expect(await broadcast.waitUntilEnded() == .cancelled)
        #expect(await consumer.value >= 5, "meter events were read before the cancel")
        var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        gst_element_get_state(broadcast.pipeline, &state, &pending, 0)
        #expect(state == GST_STATE_NULL)
    }

    @Test func releasingARunningBroadcastStopsIt() async throws {
        var broadcast: Broadcast? = try Broadcast(description: Self.broadcastSource + " ! fakesink sync=true")
        try await broadcast?.start()
        let pipeline = try #require(broadcast?.pipeline)
        gst_object_ref(pipeline)
        defer { gst_object_unref(pipeline) }
        try await Task.sleep(for: .milliseconds(300))
        broadcast = nil
        var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        gst_element_get_state(pipeline, &state, &pending, 0)
        #expect(state == GST_STATE_NULL)
    }

    /// A sink that keeps what it cannot send (an appsink nobody reads) passes the memory
    /// limit; the application gets the limit's error once the other outputs finished.
    @Test func theMemoryLimitEndsTheBroadcastWithItsError() async throws {
        let limit = try #require(ProcessMemory.footprint()) + 40_000_000
        let broadcast = try Broadcast(description: "replaykitsrc name=rk width=480 height=1040 memory-limit=\(limit) "
            + "rk.video ! appsink sync=false wait-on-eos=false rk.audio_app ! fakesink rk.audio_mic ! fakesink")
        try await broadcast.start()
        async let events = Self.collect(broadcast)
        let ending = await broadcast.waitUntilEnded()
        guard case .failed(let issue) = ending else {
            Issue.record("ended with \(ending)")
            return
        }
        #expect(issue.element == "rk" && issue.domain == "gst-resource-error-quark" && issue.message.contains("memory-limit"),
                "\(issue)")
        let order = await events.compactMap { event -> String? in
            switch event {
            case .error: "error"
            case .finished: "finished"
            case .endOfStream: "end"
            default: nil
            }
        }
        #expect(order == ["error", "finished", "end"])
    }

    static func collect(_ broadcast: Broadcast) async -> [BroadcastEvent] {
        var all: [BroadcastEvent] = []
        for await event in broadcast.events { all.append(event) }
        return all
    }
}
