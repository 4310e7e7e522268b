// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import Foundation
import ReplayCastKit
import ReplayCastTools

extension ReplayCastCommand {
    struct Swarm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run many emulated broadcasters at once against one RTMP or SRT ingest.",
            discussion: """
                Each broadcaster is pipelines/swarm-member.pipeline with its own device profile, \
                schedule (pauses, calls, orientation and mic changes, an early finish) and start, all \
                drawn from --seed: the same seed gives the same swarm. Each has its own connection, \
                URL (--url with {n} replaced by its number), timestamps and reconnections; with --uplink, \
                each also draws a link of its own (rate, down and up, delay, stall), made by a relay on \
                127.0.0.1 that passes to the ingest. Prints \
                the totals every 5 s and a line per broadcaster at the end; exits 1 when any \
                broadcaster never reached the server or ended with an error.
                """,
            subcommands: [Merge.self])

        @Option(help: "How many broadcasters.")
        var count = 10

        @Option(help: ArgumentHelp("Where each publishes, rtmp:// or srt://; {n} is its number, from 1.", valueName: "URL"))
        var url = "rtmp://127.0.0.1:1935/live/dev{n}"

        @Option(help: "Seed of the devices, schedules and starts.")
        var seed: UInt64 = 1

        @Option(help: "Seconds the swarm runs; each broadcaster ends cleanly then.")
        var duration: Double = 30

        @Option(help: ArgumentHelp("When broadcasters start: together, or ramp:TIME (evenly over TIME, e.g. ramp:10s).",
                                   valueName: "ARRIVAL"))
        var arrival = "together"

        @Option(help: ArgumentHelp("Screen size.", valueName: "WIDTHxHEIGHT"))
        var size = "240x520"

        @Option(help: "Frames per second each sends.")
        var fps = 15

        @Option(help: "Video bitrate of each, in kbit/s.")
        var videoBitrate = 300

        @Option(help: ArgumentHelp("Each broadcaster's pipeline file (or its name in the library); it gets the "
                                   + "variables of swarm-member.pipeline.", valueName: "FILE|NAME"))
        var pipeline = "swarm-member"

        @Option(name: .customLong("uplink"),
                help: ArgumentHelp("A link between a broadcaster and the ingest, as replaycast uplink's schedule from the "
                                   + "broadcaster's start (e.g. lte=\"0s:rate=2mbit; 12s:rate=500kbit; 20s:down; 22s:up\"); "
                                   + "repeat it: each broadcaster draws one, through a relay of its own.",
                                   valueName: "[NAME=]SCHEDULE"))
        var uplinkTexts: [String] = []

        @Option(help: ArgumentHelp("Run only shard I of N: broadcasters I, I+N, I+2N … of the same swarm "
                                   + "(`replaycast swarm merge` joins the shards' reports).", valueName: "I/N"))
        var shard = "1/1"

        @Option(help: ArgumentHelp("Write what each broadcaster did as JSON to FILE (- for standard output).", valueName: "FILE"))
        var report: String?

        @Flag(help: "Print the drawn swarm (number, device, start, schedule) and exit.")
        var plan = false

        func validate() throws {
            guard (1...10_000).contains(count) else { throw ValidationError("--count must be 1 to 10000") }
            guard url.contains("{n}") || count == 1 else {
                throw ValidationError("--url needs {n} (the broadcaster's number): each broadcaster publishes its own stream")
            }
            guard duration > 0 && duration.isFinite else { throw ValidationError("--duration must be a positive number of seconds") }
            guard SwarmPlan.Arrival(arrival) != nil else { throw ValidationError("--arrival must be together or ramp:TIME, e.g. ramp:10s") }
            guard screen != nil else { throw ValidationError("--size must be WIDTHxHEIGHT, e.g. 240x520 (width 128 to 4096)") }
            guard (1...60).contains(fps) else { throw ValidationError("--fps must be 1 to 60") }
            guard (50...100_000).contains(videoBitrate) else { throw ValidationError("--video-bitrate must be 50 to 100000 kbit/s") }
            guard shardPart.of <= count else { throw ValidationError("--shard must be I/N with 1 ≤ I ≤ N ≤ --count, e.g. 2/10") }
            do { _ = try uplinks() } catch { throw ValidationError("--uplink: \(error)") }
        }

        private func uplinks() throws(UplinkSchedule.ParseError) -> [SwarmPlan.Uplink] {
            var parsed: [SwarmPlan.Uplink] = []
            for (index, text) in uplinkTexts.enumerated() { parsed.append(try SwarmPlan.Uplink(parsing: text, position: index + 1)) }
            return parsed
        }

        private var shardPart: (index: Int, of: Int) {
            let parts = shard.split(separator: "/")
            guard parts.count == 2, let index = Int(parts[0]), let of = Int(parts[1]), 1 <= index, index <= of else {
                return (1, .max)
            }
            return (index, of)
        }

        private var screen: (width: Int, height: Int)? {
            let parts = size.split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  (128...4096).contains(width), (2...4096).contains(height) else { return nil }
            return (width, height)
        }

        func run() async throws {
            let whole = SwarmPlan(count: count, seed: seed, duration: .seconds(duration), arrival: SwarmPlan.Arrival(arrival)!,
                                  uplinks: try uplinks())
            if plan {
                for member in whole.shard(shardPart.index, of: shardPart.of) {
                    print(String(format: "%4d ", member.number) + member.device.padding(toLength: 16, withPad: " ", startingAt: 0)
                          + String(format: " %6.2f s  ", member.start.seconds) + (member.schedule.isEmpty ? "-" : member.schedule)
                          + (member.uplink.map { "  uplink \($0.name)" } ?? ""))
                }
                return
            }
            let file = PipelineLibrary.resolve(pipeline)
            guard FileManager.default.fileExists(atPath: file) else {
                throw PipelineRunner.Failure(description: "swarm: no pipeline file \(pipeline)"
                                             + (pipeline.contains("/") ? "" : " in \(PipelineLibrary.folders.joined(separator: " or "))"))
            }
            let screen = screen!
            let swarm = ReplayCastTools.Swarm(
                plan: whole, shard: shardPart.index, of: shardPart.of, pipelineFile: file, url: url,
                variables: ["WIDTH": String(screen.width), "HEIGHT": String(screen.height), "FPS": String(fps),
                            "KEYFRAME_INTERVAL": String(fps * 2), "VIDEO_BITRATE": String(videoBitrate)])
            Self.say("swarm: \(swarm.members.count) of \(count) broadcasters (shard \(shard)), seed \(seed), \(arrival), \(duration) s, "
                + "\(size) at \(fps) fps, \(videoBitrate) kbit/s, to \(url)")
            // Ctrl-C ends every running broadcaster cleanly, as `replaycast run` does its one.
            swarm.stopOnInterrupt()
            let started = ContinuousClock.now
            let totals = Task {
                while (try? await Task.sleep(for: .seconds(5))) != nil {
                    let running = swarm.broadcasts.values
                    Self.say(Self.totals(at: (ContinuousClock.now - started).seconds, of: swarm.members.count,
                                         outputs: running.flatMap(\.rtmpOutputs), traffic: running.map(\.traffic)))
                }
            }
            let final = try await swarm.run()
            totals.cancel()
            // With the report on standard output, the lines go with the totals.
            for line in final.lines { if report == "-" { Self.say(line) } else { print(line) } }
            if let report {
                do { try final.write(to: report) } catch { throw PipelineRunner.Failure(description: "swarm: \(error)") }
            }
            if final.failed > 0 { throw ExitCode(1) }
        }

        private static func totals(at seconds: Double, of count: Int, outputs: [RTMPOutput], traffic: [BroadcastTraffic]) -> String {
            let states = outputs.map(\.connection)
            let connected = states.filter { $0 == .connected }.count
            let waiting = states.filter { $0 == .waiting || $0 == .connecting }.count
            let bits = Double(traffic.map(\.encodedBytes).reduce(0, +)) * 8 / max(seconds, 0.001)
            return String(format: "swarm %6.1f s: %d of %d running, %d connected, %d reconnecting, %d failed, %.2f Mb/s, %d reconnections",
                          seconds, outputs.count, count, connected, waiting, outputs.filter(\.failed).count, bits / 1e6,
                          outputs.map(\.reconnections).reduce(0, +))
        }

        private static func say(_ text: String) {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }
}
