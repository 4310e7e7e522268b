// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import Foundation
import ReplayCastKit

extension ReplayCastCommand {
    struct Uplink: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a command (a server and a broadcast) in a private network whose uplink to the given ports follows a schedule.",
            discussion: """
                Everything that talks over the shaped link must run inside COMMAND (a script that starts \
                the server and the broadcast, say): it gets a loopback of its own, where packets to the \
                --port ports of 127.0.0.1 go through a link with the schedule's rate, and all other \
                traffic (the server's answers included) passes unshaped. Needs root, or unprivileged \
                user namespaces, and tc (iproute2). Ends when COMMAND ends, with its exit status, or \
                after --duration (COMMAND gets SIGINT, then SIGKILL 10 s later).
                """)

        @Option(help: ArgumentHelp("What the link does when, e.g. \"0s:rate=4mbit; 20s:rate=600kbit; 40s:down; 45s:up\".",
                                   valueName: "SCHEDULE"))
        var schedule: String

        @Option(name: .customLong("port"), help: "A port on 127.0.0.1 whose incoming traffic is shaped (repeatable).")
        var ports: [Int] = []

        @Option(help: "Stop COMMAND after this many seconds at the latest.")
        var duration: Double = 600

        @Argument(parsing: .postTerminator, help: "The command to run in the private network (after --).")
        var command: [String] = []

        func validate() throws {
            do { _ = try UplinkSchedule(parsing: schedule) } catch { throw ValidationError(error.description) }
            guard !ports.isEmpty else { throw ValidationError("give at least one --port whose traffic the link shapes") }
            if let bad = ports.first(where: { !(1...65535).contains($0) }) { throw ValidationError("--port \(bad) is not a port") }
            guard duration > 0 && duration.isFinite else { throw ValidationError("--duration must be a positive number of seconds") }
            guard !command.isEmpty else { throw ValidationError("give the command to run after --") }
        }

        func run() throws {
            guard ShapedUplink.isInPrivateNetwork else {
                throw PipelineRunner.Failure(description: "uplink: " + ShapedUplink.runInPrivateNetwork().description)
            }
            let steps = try! UplinkSchedule(parsing: schedule).steps
            let link: ShapedUplink
            do { link = try ShapedUplink(ports: ports) } catch {
                throw PipelineRunner.Failure(description: "uplink: \(error)")
            }
            let child: ChildProcess
            do { child = try ChildProcess(command) } catch { throw PipelineRunner.Failure(description: "uplink: \(error)") }
            // Ctrl-C reaches the command through the terminal; this process outlives it to report.
            signal(SIGINT, SIG_IGN)
            let started = Date()
            let say = { (text: String) in
                FileHandle.standardError.write(Data(String(format: "uplink %6.1f s: %@\n", Date().timeIntervalSince(started), text).utf8))
            }
            say("private network, 127.0.0.1 port\(ports.count > 1 ? "s" : "") \(ports.map(String.init).joined(separator: ", ")) shaped")
            var pending = steps[...]
            var stopping: Date?
            while child.exitStatus(blocking: false) == nil {
                let now = Date().timeIntervalSince(started)
                while let step = pending.first, step.time <= .seconds(now) {
                    pending = pending.dropFirst()
                    do {
                        try link.apply(step.change)
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
            if let counters = link.counters() {
                say(String(format: "%.1f MB in %llu packets sent through, %llu packets dropped", Double(counters.bytes) / 1e6,
                           counters.packets, counters.dropped))
            }
            let status = child.exitStatus(blocking: true) ?? 1
            if status != 0 { throw ExitCode(status) }
        }
    }
}
