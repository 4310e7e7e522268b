// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import Foundation
import ReplayCastKit
import ReplayCastTools

extension ReplayCastCommand {
    struct CheckLatency: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-latency",
            abstract: "Measure capture-to-receiver latency of a broadcast made with replaykitsrc barcode-time=utc.",
            discussion: """
                Reads each OUTPUT for --duration seconds, all at the same time, while the broadcast runs. \
                Every frame's barcode strip carries its capture time in UTC (replaykitsrc barcode-time=utc, \
                set by the pipelines in pipelines/), compared with this machine's real-time clock: on the \
                broadcasting machine, or on one whose clock is synchronised with it (NTP, PTP).

                A stream (rtmp://host/app/name pulled from the server, srt://host:port as a caller or \
                srt://0.0.0.0:port?mode=listener as the receiver) is decoded as it arrives: per second, the \
                frames read and their median and largest latency. An HLS playlist on local disk (a path \
                ending in .m3u8) is polled every 100 ms: per new segment, the time it was first listed less \
                its first frame's capture time, and the same from its EXT-X-PROGRAM-DATE-TIME. At the end: \
                median, 95th percentile and largest for each output (without the first --skip seconds). Exits with status 1 when an output \
                gives no latency or a 95th percentile is over --max-p95-ms.
                """)

        @Argument(help: "Outputs to read: rtmp://, srt://, udp:// URIs, or an HLS playlist on local disk (.m3u8).")
        var outputs: [String]

        @Option(help: "Seconds to read each output.")
        var duration = 20.0

        @Option(help: "Leave what arrives in the first SECONDS out of the summary (a player's start-up); it is still printed.")
        var skip = 0.0

        @Option(name: .customLong("max-p95-ms"), help: "Fail when an output's 95th percentile exceeds this many milliseconds.")
        var maxP95Milliseconds: Double?

        func validate() throws {
            guard !outputs.isEmpty else { throw ValidationError("give at least one output") }
            guard duration > 0 else { throw ValidationError("--duration must be positive") }
            guard skip >= 0, skip < duration else { throw ValidationError("--skip must be at least 0 and below --duration") }
            if let maxP95Milliseconds, !(maxP95Milliseconds > 0) {
                throw ValidationError("--max-p95-ms must be positive")
            }
        }

        func run() async throws {
            print(String(format: "reading %d output%@ for %.0f s", outputs.count, outputs.count == 1 ? "" : "s", duration))
            let results = await withTaskGroup(of: (Int, Result<LatencyCheck.Findings, LatencyCheck.Failure>).self) { group in
                for (index, output) in outputs.enumerated() {
                    group.addTask {
                        do throws(LatencyCheck.Failure) {
                            return (index, .success(try await LatencyCheck.measure(output, for: .seconds(duration),
                                                                                   skip: .seconds(skip), events: Self.show)))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results: [(Int, Result<LatencyCheck.Findings, LatencyCheck.Failure>)] = []
                for await result in group { results.append(result) }
                return results.sorted { $0.0 < $1.0 }.map(\.1)
            }
            var failed = false
            for result in results {
                switch result {
                case .failure(let failure):
                    print(failure.description)
                    failed = true
                case .success(let findings):
                    if !verdict(findings) { failed = true }
                }
            }
            if failed { throw ExitCode(1) }
        }

        /// Prints the output's summary; false when it fails the check.
        private func verdict(_ findings: LatencyCheck.Findings) -> Bool {
            let unit = findings.kind == .hls ? "segments" : "frames"
            guard let latencies = findings.latencies else {
                if findings.broadcastTime > 0 {
                    print("\(findings.output): \(findings.broadcastTime) \(unit) carry broadcast time, not UTC: "
                          + "was replaykitsrc run with barcode-time=utc?")
                } else {
                    print("\(findings.output): no latency read (\(findings.unreadable) \(unit) without a readable barcode strip)")
                }
                return false
            }
            var line = String(format: "%@: %d %@, latency median %.1f ms, p95 %.1f ms, max %.1f ms", findings.output,
                              latencies.count, unit, latencies.median * 1000, latencies.p95 * 1000, latencies.maximum * 1000)
            if let gap = findings.longestGap { line += String(format: ", longest gap %.1f ms", gap * 1000) }
            if let gap = findings.longestPictureGap { line += String(format: " (%.1f ms without any picture)", gap * 1000) }
            if findings.unreadable > 0 { line += ", \(findings.unreadable) unreadable" }
            if skip > 0 { line += String(format: " (the first %g s left out)", skip) }
            print(line)
            guard let limit = maxP95Milliseconds else { return true }
            let fine = latencies.p95 * 1000 <= limit
            print(String(format: "%@: p95 %.1f ms %@ --max-p95-ms %.1f", findings.output, latencies.p95 * 1000,
                         fine ? "within" : "EXCEEDS", limit))
            return fine
        }

        @Sendable private static func show(_ event: LatencyCheck.Event) {
            switch event {
            case .second(let output, let index, let latencies?):
                print(String(format: "%4d s  %@: %d frames, median %.1f ms, max %.1f ms", index, output, latencies.count,
                             latencies.median * 1000, latencies.maximum * 1000))
            case .second(let output, let index, nil):
                print(String(format: "%4d s  %@: no frame", index, output))
            case .segment(let output, let arrival):
                var line = String(format: "segment %@: %@ (%.2f s) listed %.1f ms after its first frame's capture", output,
                                  arrival.uri, arrival.duration, arrival.latency * 1000)
                if let dated = arrival.programDateLatency {
                    line += String(format: ", %.1f ms after its program date", dated * 1000)
                }
                print(line)
            }
        }
    }
}
