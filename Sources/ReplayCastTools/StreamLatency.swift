// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import ReplayCastKit

/// `LatencyCheck` on a stream: decoded as it arrives, a summary every second. A decoder that
/// fails (a server that has no such stream yet, a connection that drops) is started again
/// 500 ms later until the time is up; one that reaches the stream's end ends the reading.
struct StreamLatency {
    let output: String
    static let retryDelay = Duration.milliseconds(500)

    private struct Attempt {
        let broadcast: Broadcast
        let reading: LatencyReading
    }

    /// Frames read in the first `skip` are left out of the findings (a player's start-up).
    func measure(for duration: Duration, skip: Duration,
                 events: @escaping @Sendable (LatencyCheck.Event) -> Void) async throws(LatencyCheck.Failure) -> LatencyCheck.Findings {
        let start = ContinuousClock.now
        let end = start + duration
        var totals = LatencyReading.Counts()
        var lastFailure: String?
        var attempt: Attempt? = try open()
        var retryAt: ContinuousClock.Instant?
        var index = 0
        var kept: [LatencyReading.Frame] = []
        /// Frames read in the second that starts `offset` into the reading.
        func keep(_ frames: [LatencyReading.Frame], secondAt offset: Duration) {
            if offset >= skip { kept += frames }
        }
        while ContinuousClock.now < end {
            index += 1
            try? await Task.sleep(until: min(start + .seconds(index), end))
            let second = attempt?.reading.take() ?? []
            keep(second, secondAt: .seconds(index - 1))
            events(.second(output: output, index: index, latencies: LatencySummary(second.compactMap(\.latency))))
            if let running = attempt, !running.broadcast.isRunning {
                let ending = await running.broadcast.waitUntilEnded()
                keep(running.reading.take(), secondAt: .seconds(index))
                totals.add(running.reading.snapshot)
                attempt = nil
                guard case .failed(let issue) = ending else { break }
                lastFailure = "\(issue)"
                retryAt = ContinuousClock.now + Self.retryDelay
            }
            if attempt == nil, let due = retryAt, ContinuousClock.now >= due {
                retryAt = nil
                attempt = try open()
            }
        }
        if let running = attempt {
            await running.broadcast.cancel()
            keep(running.reading.take(), secondAt: .seconds(index))
            totals.add(running.reading.snapshot)
        }
        if totals.all.isEmpty, let lastFailure {
            throw LatencyCheck.Failure(description: "\(output): \(lastFailure)")
        }
        let latencies = kept.compactMap(\.latency)
        return LatencyCheck.Findings(output: output, kind: .stream, latencies: LatencySummary(latencies),
                                     read: latencies.count, unreadable: totals.unreadable,
                                     broadcastTime: totals.broadcastTime,
                                     longestGap: LatencyCheck.longestGap(between: kept.compactMap(\.capture)),
                                     longestPictureGap: kept.compactMap(\.sincePrevious).max().map { Timebase.seconds($0) })
    }

    private func open() throws(LatencyCheck.Failure) -> Attempt {
        let broadcast: Broadcast
        do {
            broadcast = try Broadcast(description: LatencyReading.decoder)
        } catch {
            throw LatencyCheck.Failure(description: "\(output): \(error)")
        }
        if let problem = LatencyReading.addSource(uri: LatencyCheck.uri(output), to: broadcast.pipeline) {
            throw LatencyCheck.Failure(description: "\(output): \(problem)")
        }
        let reading = LatencyReading(pipeline: broadcast.pipeline)
        broadcast.startWithoutWaiting()
        return Attempt(broadcast: broadcast, reading: reading)
    }
}
