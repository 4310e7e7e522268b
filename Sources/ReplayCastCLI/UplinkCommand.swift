// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import Foundation
import ReplayCastKit
import ReplayCastTools

extension ReplayCastCommand {
    struct Uplink: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a command (a server and a broadcast) in a private network whose uplink to the given ports follows a schedule.",
            discussion: """
                Everything that talks over the shaped link must run inside COMMAND (a script that starts \
                the server and the broadcast, say): it gets a loopback of its own, where packets to the \
                --port ports of 127.0.0.1 go through a link with the schedule's rate, and all other \
                traffic (the server's answers included) passes unshaped. Delay and stalls need \
                --relay PORT:SERVER_PORT: a relay in this process takes the broadcast's connections \
                on PORT (shaped) and passes them to the server on SERVER_PORT. Needs root, or \
                unprivileged user namespaces, and tc (iproute2). Ends when COMMAND ends, with its exit \
                status, or after --duration (COMMAND gets SIGINT, then SIGKILL 10 s later).
                """)

        @Option(help: ArgumentHelp("What the link does when, e.g. \"0s:rate=4mbit; 20s:rate=600kbit; 40s:down; 45s:up\"; "
                                   + "with --relay also delay=150ms, stall and resume.",
                                   valueName: "SCHEDULE"))
        var schedule: String

        @Option(name: .customLong("port"), help: "A port on 127.0.0.1 whose incoming traffic is shaped (repeatable).")
        var ports: [Int] = []

        @Option(help: ArgumentHelp("Relay the broadcast's TCP and UDP on PORT (shaped) to the server on SERVER_PORT, "
                                   + "for the schedule's delay, stall and resume.", valueName: "PORT:SERVER_PORT"))
        var relay: String?

        @Option(help: "Stop COMMAND after this many seconds at the latest.")
        var duration: Double = 600

        @Argument(parsing: .postTerminator, help: "The command to run in the private network (after --).")
        var command: [String] = []

        func validate() throws {
            let parsed: UplinkSchedule
            do { parsed = try UplinkSchedule(parsing: schedule) } catch { throw ValidationError(error.description) }
            if relay != nil && relayPorts == nil { throw ValidationError("--relay expects PORT:SERVER_PORT, e.g. 1935:1936") }
            if parsed.needsRelay && relay == nil {
                throw ValidationError("delay, stall and resume need --relay PORT:SERVER_PORT (the kernel's link has no delay)")
            }
            guard !shapedPorts.isEmpty else { throw ValidationError("give at least one --port whose traffic the link shapes") }
            if let bad = shapedPorts.first(where: { !(1...65535).contains($0) }) { throw ValidationError("--port \(bad) is not a port") }
            guard duration > 0 && duration.isFinite else { throw ValidationError("--duration must be a positive number of seconds") }
            guard !command.isEmpty else { throw ValidationError("give the command to run after --") }
        }

        func run() throws {
            guard ShapedUplink.isInPrivateNetwork else {
                throw PipelineRunner.Failure(description: "uplink: " + ShapedUplink.runInPrivateNetwork().description)
            }
            let steps = try! UplinkSchedule(parsing: schedule).steps
            let link: ShapedUplink
            do { link = try ShapedUplink(ports: shapedPorts) } catch {
                throw PipelineRunner.Failure(description: "uplink: \(error)")
            }
            var relayed: UplinkRelay?
            if let (port, server) = relayPorts {
                do { relayed = try UplinkRelay(port: port, serverPort: server) } catch {
                    throw PipelineRunner.Failure(description: "uplink: relay: \(error)")
                }
            }
            let child: ChildProcess
            do { child = try ChildProcess(command) } catch { throw PipelineRunner.Failure(description: "uplink: \(error)") }
            // Ctrl-C reaches the command through the terminal; this process outlives it to report.
            signal(SIGINT, SIG_IGN)
            let started = Date()
            let say = { (text: String) in
                FileHandle.standardError.write(Data(String(format: "uplink %6.1f s: %@\n", Date().timeIntervalSince(started), text).utf8))
            }
            let shaped = shapedPorts.map(String.init).joined(separator: ", ")
            say("private network, 127.0.0.1 port\(shapedPorts.count > 1 ? "s" : "") \(shaped) shaped"
                + (relayed.map { ", relay \($0.port) → \($0.serverPort)" } ?? ""))
            var pending = steps[...]
            var stopping: Date?
            while child.exitStatus(blocking: false) == nil {
                let now = Date().timeIntervalSince(started)
                while let step = pending.first, step.time <= .seconds(now) {
                    pending = pending.dropFirst()
                    do {
                        if step.change.isRelays { relayed?.apply(step.change) } else { try link.apply(step.change) }
                        say("\(step.change)")
                    } catch {
                        say("\(error)")
                        child.send(SIGINT)
                    }
                }
                if stopping == nil && now >= duration {
                    say("--duration \(duration) s reached: stopping \(command[0])")
                    child.send(SIGINT)
                    stopping = Date()
                }
                if let stopping, Date().timeIntervalSince(stopping) > 10 { child.send(SIGKILL) }
                usleep(10_000)
            }
            if let relayed { say("relay: \(relayed.stop())") }
            if let counters = link.counters() {
                say(String(format: "%.1f MB in %llu packets sent through, %llu packets dropped", Double(counters.bytes) / 1e6,
                           counters.packets, counters.dropped))
            }
            let status = child.exitStatus(blocking: true) ?? 1
            if status != 0 { throw ExitCode(status) }
        }

        private var relayPorts: (port: Int, server: Int)? {
            guard let parts = relay?.split(separator: ":"), parts.count == 2, let port = Int(parts[0]), let server = Int(parts[1]),
                  (1...65535).contains(port), (1...65535).contains(server), port != server else { return nil }
            return (port, server)
        }

        /// The relay's port is the broadcast's way in, so it is shaped too.
        private var shapedPorts: [Int] { ports + (relayPorts.map { [$0.port] } ?? []) }
    }
}
