import ArgumentParser
import CGStreamer
import CReplayCast

@main
struct ReplayCastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replaycast",
        abstract: "Run ReplayCast pipelines with live loudness meters.",
        subcommands: [Run.self, Launch.self, CheckSync.self])
}

struct RunOptions: ParsableArguments {
    @Option(name: .long, help: "Send end-of-stream after this many seconds (a clean finish: files are closed).")
    var duration: Double?

    @Flag(name: .long, help: "Print no meters, only errors and the summary.")
    var quiet = false
}

extension ReplayCastCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a pipeline description file (see pipelines/).")

        @Argument(help: "A .pipeline file: a gst-launch description, `#` comments, ${NAME:-default} placeholders.")
        var file: String

        @Option(name: .customLong("set"), help: "Replace ${NAME} in the file: --set NAME=VALUE (repeatable).")
        var assignments: [String] = []

        @OptionGroup var options: RunOptions

        func run() throws {
            let variables = try Dictionary(assignments.map(PipelineFile.assignment), uniquingKeysWith: { $1 })
            let pipelineFile = try PipelineFile(path: file, variables: variables)
            let status = try PipelineRunner(description: pipelineFile.description, origin: pipelineFile,
                                            duration: options.duration, quiet: options.quiet).run()
            if status != 0 { throw ExitCode(status) }
        }
    }

    struct Launch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a gst-launch style description given on the command line.")

        @Argument(parsing: .remaining, help: "The pipeline, as for gst-launch-1.0.")
        var description: [String]

        @OptionGroup var options: RunOptions

        func run() throws {
            let status = try PipelineRunner(description: description.joined(separator: " "), origin: nil,
                                            duration: options.duration, quiet: options.quiet).run()
            if status != 0 { throw ExitCode(status) }
        }
    }
}
