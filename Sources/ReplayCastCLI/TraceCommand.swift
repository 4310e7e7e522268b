// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import Foundation
import ReplayCastKit
import ReplayCastTools

extension ReplayCastCommand {
    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a replaykitsrc run as a device trace, or check a trace before replaying it.",
            discussion: """
                A trace lists what a ReplayKit upload extension received, one JSON object per line: \
                each sample buffer's type, time, duration and format, and the broadcast's lifecycle. \
                replaykitsrc trace=FILE replays one (docs/replaykitsrc.md, "Device traces").
                """,
            subcommands: [Record.self, Check.self])
    }
}

extension ReplayCastCommand.Trace {
    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a pipeline file and write the trace of its replaykitsrc.")

        @OptionGroup var source: PipelineSource
        @OptionGroup var options: RunOptions

        @Option(name: .long, help: ArgumentHelp("Where to write the trace.", valueName: "FILE"))
        var output: String

        func run() async throws {
            try await source.run(options, trace: output)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a trace line by line and summarise it; exit status 1 at the first bad line.")

        @Argument(help: "A trace file.")
        var file: String

        func run() throws {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw PipelineRunner.Failure(description: "cannot read \(file): \(error.localizedDescription)")
            }
            let trace: BroadcastTrace
            do {
                trace = try TraceReader.read(text)
            } catch {
                throw PipelineRunner.Failure(description: error.located(in: file))
            }
            print(Self.summary(of: trace, named: file))
        }

        static func summary(of trace: BroadcastTrace, named file: String) -> String {
            func seconds(_ nanoseconds: UInt64) -> String { String(format: "%.3f s", Double(nanoseconds) / 1e9) }
            var lines = ["\(file): a valid trace"]
            if let size = trace.screenSize {
                lines.append("  video     \(trace.samples(of: .video).count) frames, \(size.width)x\(size.height) at first")
            }
            for (type, name) in [(BroadcastTrace.SampleType.audioApp, "audioApp"), (.audioMic, "audioMic")] {
                let samples = trace.samples(of: type)
                guard !samples.isEmpty else { continue }
                var formats: [String] = []
                for sample in samples {
                    guard case .audio(let format, _) = sample.content else { continue }
                    let text = "\(format.rate) Hz \(format.channels) ch \(format.format == .s16be ? "S16BE" : "S16LE")"
                    if formats.last != text { formats.append(text) }
                }
                lines.append("  \(name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(samples.count) buffers, "
                             + formats.joined(separator: " → "))
            }
            for event in trace.events { lines.append("  \(event.action) at \(seconds(event.time))") }
            return lines.joined(separator: "\n")
        }
    }
}
