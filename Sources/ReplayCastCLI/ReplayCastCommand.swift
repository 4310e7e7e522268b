// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import ReplayCastKit
import ReplayCastTools

@main
struct ReplayCastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replaycast",
        abstract: "Run ReplayCast pipelines with a live status screen, and check their outputs.",
        version: versionText(),
        subcommands: [Run.self, Launch.self, List.self, Print.self, CheckSync.self, CheckLatency.self, Uplink.self, Swarm.self,
                      Trace.self])
}

/// "0.1.0 (built against GStreamer 1.22.0, running on GStreamer 1.26.2)": a plugin built
/// against a newer GStreamer than the one it runs on does not load.
private func versionText() -> String {
    "\(ReplayCastVersion.replayCast) (built against GStreamer \(ReplayCastVersion.gstreamerBuiltAgainst), "
        + "running on \(ReplayCastVersion.gstreamerRunning))"
}

struct RunOptions: ParsableArguments {
    @Option(name: .long, help: "Send end-of-stream after this many seconds (a clean finish: files are closed).")
    var duration: Double?

    @Flag(name: .long, help: "Print no meters, only errors and the summary.")
    var quiet = false

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, got \(duration)")
        }
    }
}

/// `--set NAME=VALUE` options, checked before anything runs.
struct Assignments: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("Replace ${NAME} in the file (repeatable).", valueName: "NAME=VALUE"))
    var assignments: [String] = []

    func validate() throws {
        for text in assignments { _ = try Self.parse(text) }
    }

    var variables: [String: String] {
        Dictionary(assignments.compactMap { try? Self.parse($0) }, uniquingKeysWith: { $1 })
    }

    static func parse(_ text: String) throws -> (String, String) {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
            throw ValidationError("--set expects NAME=VALUE, got '\(text)'")
        }
        let name = text[..<eq]
        guard name.first.map({ $0.isLetter || $0 == "_" }) == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw ValidationError("--set: '\(name)' is not a placeholder name (letters, digits and _, not starting with a digit)")
        }
        return (String(name), String(text[text.index(after: eq)...]))
    }
}

/// A pipeline file named on the command line, with the values for its placeholders.
struct PipelineSource: ParsableArguments {
    @Argument(help: "A .pipeline file (gst-launch description, `#` comments, ${NAME:-default} placeholders) or a name from `replaycast list`.")
    var file: String

    @OptionGroup var assignments: Assignments

    /// Runs the file as `run` does; a status other than 0 is the command's exit status.
    func run(_ options: RunOptions, serve: String? = nil, trace: String? = nil) async throws {
        let pipelineFile = try load()
        let status = try await PipelineRunner(description: pipelineFile.description, origin: pipelineFile, duration: options.duration,
                                              quiet: options.quiet, serve: serve, trace: trace).run()
        if status != 0 { throw ExitCode(status) }
    }

    func load() throws -> PipelineFile {
        let path = PipelineLibrary.resolve(file)
        do {
            return try PipelineFile(path: path, variables: assignments.variables)
        } catch {
            throw PipelineRunner.Failure(description: error.description + (error.variable.map { ": pass --set \($0)=VALUE" } ?? ""))
        }
    }
}

extension ReplayCastCommand {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a pipeline description file (a path, or a name from `replaycast list`).")

        @OptionGroup var source: PipelineSource
        @OptionGroup var options: RunOptions

        @Option(help: ArgumentHelp("Serve the HLS output and a live preview page over HTTP while the broadcast runs "
                                   + "(PORT alone binds to 127.0.0.1).", valueName: "HOST:PORT"))
        var serve: String?

        func run() async throws {
            try await source.run(options, serve: serve)
        }
    }

    struct Launch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a gst-launch style description given on the command line.")

        @Argument(parsing: .remaining, help: "The pipeline, as for gst-launch-1.0.")
        var description: [String]

        @OptionGroup var options: RunOptions

        func run() async throws {
            let status = try await PipelineRunner(description: description.joined(separator: " "), origin: nil,
                                                  duration: options.duration, quiet: options.quiet).run()
            if status != 0 { throw ExitCode(status) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the pipeline files `replaycast run NAME` finds, with their descriptions.")

        func run() throws {
            let entries = PipelineLibrary.entries()
            guard !entries.isEmpty else {
                print("no pipeline files in \(PipelineLibrary.folders.joined(separator: " or "))")
                throw ExitCode(1)
            }
            let width = entries.map(\.name.count).max() ?? 0
            for entry in entries {
                print(entry.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + entry.summary)
            }
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a pipeline file as a gst-launch-1.0 command for a shell, placeholders filled in.")

        @OptionGroup var source: PipelineSource

        func run() throws {
            print(try source.load().shellCommand)
        }
    }
}
