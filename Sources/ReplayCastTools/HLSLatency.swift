// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import ReplayCastKit
import ReplayKitModel

/// `LatencyCheck` on an HLS playlist: polled every 100 ms, each newly listed segment timed
/// against the capture time of its first frame.
struct HLSLatency {
    let playlist: String
    static let pollInterval = Duration.milliseconds(100)

    /// Segments listed in the first `skip` are left out of the findings.
    func measure(for duration: Duration, skip: Duration,
                 events: @escaping @Sendable (LatencyCheck.Event) -> Void) async throws(LatencyCheck.Failure) -> LatencyCheck.Findings {
        let start = ContinuousClock.now
        let end = start + duration
        // Segments listed at the first successful read came before the check: their arrival is unknown.
        var known: Set<String>?
        var polledBefore = false
        var lastProblem: String?
        var latencies: [Double] = []
        var unreadable = 0, broadcastTime = 0
        while ContinuousClock.now < end {
            let poll = read()
            let now = UTCTime.now()
            switch poll {
            case .problem(let problem):
                lastProblem = problem
            case .text(let text):
                let listed = PlaylistSegments(text).segments
                if known == nil { known = polledBefore ? [] : Set(listed.map(\.uri)) }
                let arrivals = listed.filter { !known!.contains($0.uri) }
                known!.formUnion(arrivals.map(\.uri))
                for segment in arrivals {
                    guard let capture = await firstCapture(of: segment.uri) else {
                        unreadable += 1
                        continue
                    }
                    guard UTCTime.isPlausible(capture) else {
                        broadcastTime += 1
                        continue
                    }
                    let arrival = SegmentTiming(listed: now, capture: capture, programDate: segment.programDate)
                    if ContinuousClock.now - start > skip { latencies.append(arrival.latency) }
                    events(.segment(output: playlist, LatencyCheck.SegmentArrival(
                        uri: segment.uri, duration: segment.duration, latency: arrival.latency,
                        programDateLatency: arrival.programDateLatency)))
                }
            }
            polledBefore = true
            try? await Task.sleep(until: min(ContinuousClock.now + Self.pollInterval, end))
        }
        if known == nil {
            throw LatencyCheck.Failure(description: "\(playlist): \(lastProblem ?? "could not be read")")
        }
        return LatencyCheck.Findings(output: playlist, kind: .hls, latencies: LatencySummary(latencies),
                                     read: latencies.count, unreadable: unreadable, broadcastTime: broadcastTime,
                                     longestGap: nil, longestPictureGap: nil)
    }

    private struct SegmentTiming {
        let latency: Double
        let programDateLatency: Double?

        init(listed: UInt64, capture: UInt64, programDate: Double?) {
            latency = Timebase.seconds(Double(listed) - Double(capture))
            programDateLatency = programDate.map { Timebase.seconds(listed) - $0 }
        }
    }

    private enum Poll {
        case text(String)
        case problem(String)
    }

    /// The playlist as it is now. A local one only: Foundation's HTTP client needs libcurl,
    /// which the statically linked release build does not carry.
    private func read() -> Poll {
        let path = playlist.hasPrefix("file://") ? URL(string: playlist)?.path ?? playlist : playlist
        do {
            return .text(try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            return .problem("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// The segment's address: playlists list segments relative to themselves.
    private func locate(_ segment: String) -> String {
        if segment.contains("://") { return segment }
        if playlist.hasPrefix("file://") {
            return URL(string: segment, relativeTo: URL(string: playlist))?.absoluteString ?? segment
        }
        if segment.hasPrefix("/") { return LatencyCheck.uri(segment) }
        let folder = (playlist as NSString).deletingLastPathComponent
        return LatencyCheck.uri(folder.isEmpty ? segment : folder + "/" + segment)
    }

    /// The stamp in the segment's first readable strip (UTC or not); nil when none reads
    /// within 10 s. Decoding stops at that frame: the rest of the segment would take CPU from
    /// the broadcast being measured, on the same machine.
    private func firstCapture(of segment: String) async -> UInt64? {
        guard let broadcast = try? Broadcast(description: LatencyReading.decoder),
              LatencyReading.addSource(uri: locate(segment), to: broadcast.pipeline) == nil else { return nil }
        let reading = LatencyReading(pipeline: broadcast.pipeline)
        try? await broadcast.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while broadcast.isRunning, reading.firstStamp == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if broadcast.isRunning { await broadcast.cancel() } else { _ = await broadcast.waitUntilEnded() }
        return reading.firstStamp
    }
}
