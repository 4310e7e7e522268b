// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayKitModel
import Synchronization
import Testing

/// memory-limit in real time. Serialized and live-only: the footprint is the whole test
/// process's, so nothing else may run beside these.
@Suite(.serialized) struct ReplayKitMemoryLimitLiveTests {
    /// Frames of 480x1040 NV12 (749 kB), 30 a second: about 22 MB/s into an appsink that
    /// nobody reads (it keeps every buffer), the backlog of a sink that cannot send.
    static func pipeline(limit: UInt64, video: String, settings: String = "") -> String {
        "replaykitsrc name=rk width=480 height=1040 memory-limit=\(limit) \(settings) rk.video ! \(video) "
            + "rk.audio_app ! fakesink rk.audio_mic ! fakesink"
    }

    /// The limit: 40 MB above what this process holds now.
    static func limit() throws -> UInt64 {
        try #require(ProcessMemory.footprint()) + 40_000_000
    }

    @Test func aBacklogOverTheLimitEndsTheBroadcastWithTheLimitError() throws {
        let limit = try Self.limit()
        let peak = Atomic<UInt64>(0)
        let done = Atomic<Bool>(false)
        let sampler = Thread {
            while !done.load(ordering: .relaxed) {
                if let now = ProcessMemory.footprint() { peak.store(max(peak.load(ordering: .relaxed), now), ordering: .relaxed) }
                usleep(5000)
            }
        }
        sampler.start()
        let started = Date()
        let run = try PipelineRun.run(Self.pipeline(limit: limit, video: "appsink sync=false"), timeout: 20)
        let elapsed = Date().timeIntervalSince(started)
        done.store(true, ordering: .relaxed)
        let error = try #require(run.error, "no error in \(elapsed) s")
        #expect(error.source == "rk")
        #expect(error.text.contains("killed") && error.text.contains("memory-limit"), "\(error.text)")
        // The debug text gives the footprint the watch saw, in bytes.
        let seen = try #require(error.debug.split(separator: " ").compactMap { UInt64($0) }.first, "\(error.debug)")
        #expect(seen > limit)
        #expect(Double(seen) <= Double(limit) * 1.1, "seen \(seen) bytes for a limit of \(limit)")
        #expect(Double(peak.load(ordering: .relaxed)) <= Double(limit) * 1.1,
                "the process peaked at \(peak.load(ordering: .relaxed)) bytes for a limit of \(limit)")
        // 40 MB at about 22 MB/s.
        #expect(elapsed > 1 && elapsed < 8, "\(elapsed) s to the error")
    }

    @Test func withoutABacklogABroadcastUnderTheLimitEndsNormally() throws {
        let limit = try Self.limit()
        let run = try PipelineRun.run(Self.pipeline(limit: limit, video: "fakesink sync=false", settings: "duration=3000000000"),
                                      timeout: 10)
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.reachedEOS)
        #expect((ProcessMemory.footprint() ?? .max) < limit)
    }
}
