// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import ReplayCastKit
import ReplayCastTools

extension ReplayCastCommand.Swarm {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the reports of a swarm's shards (--shard I/N) into one.",
            discussion: """
                Every shard of one swarm (same seed, count and number of shards) must be given once. \
                Prints the line per broadcaster and the totals; exits 1 when a broadcaster failed.
                """)

        @Argument(help: ArgumentHelp("The shards' --report files.", valueName: "REPORT"))
        var reports: [String]

        // Not --report: swarm's own --report would take it.
        @Option(help: ArgumentHelp("Write the merged report as JSON to FILE (- for standard output).", valueName: "FILE"))
        var output: String?

        func run() throws {
            let merged: SwarmReport
            do {
                var read: [(path: String, report: SwarmReport)] = []
                for path in reports { read.append((path, try SwarmReport.read(path))) }
                merged = try SwarmReport.merge(read)
            } catch {
                throw PipelineRunner.Failure(description: "swarm merge: \(error)")
            }
            for line in merged.lines { print(line) }
            if let output {
                do { try merged.write(to: output) } catch { throw PipelineRunner.Failure(description: "swarm merge: \(error)") }
            }
            if merged.failed > 0 { throw ExitCode(1) }
        }
    }
}
