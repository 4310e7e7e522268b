// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit
import ReplayCastTools

/// Runs a pipeline as a `Broadcast`: shows what its events and traffic say, serves the
/// preview when asked, and ends it cleanly (`--duration`, Ctrl-C).
struct PipelineRunner {
    let description: String
    let origin: PipelineFile?
    let duration: Double?
    let quiet: Bool
    /// `--serve`: where to serve the HLS output and the preview page.
    var serve: String?
    /// `trace record`: where to write the trace of the pipeline's replaykitsrc.
    var trace: String?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the display waits for: the broadcast's next event, or the time to redraw.
    private enum Input: Sendable {
        case event(BroadcastEvent)
        case tick
    }

    /// Returns the process exit status: 0 after EOS, 1 after an error, 130 after a second Ctrl-C.
    func run() async throws -> Int32 {
        let broadcast = try makeBroadcast()
        let recorder: TraceRecorder?
        do {
            recorder = try trace.map { _ in try TraceRecorder(broadcast) }
        } catch {
            throw Failure(description: "trace record: \(error)")
        }
        if let trace {
            // A trace that cannot be written is said before the broadcast, not after it.
            let file = open(trace, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard file >= 0 else { throw Failure(description: "cannot write the trace to \(trace): \(String(cString: strerror(errno)))") }
            close(file)
        }
        let server = try serve.map { try Self.previewServer($0, for: broadcast, title: origin?.path ?? "launch") }
        server?.start()
        defer { server?.stop() }
        if let server { say("preview: http://\(server.address):\(server.port)/ (serving \(server.folder))") }
        var status = BroadcastStatus(title: origin.map { ($0.path as NSString).lastPathComponent } ?? "launch")
        var display: any StatusDisplay = isatty(STDOUT_FILENO) != 0 && !quiet ? StatusScreen() : StatusLog(quiet: quiet)
        var lastPublished = -1.0
        // The screen or log lines, and the preview's events at most four times a second.
        func refresh() {
            status.traffic = broadcast.traffic
            status.rtmp = broadcast.rtmpOutputs
            status.srt = broadcast.srtOutputs
            display.show(status)
            if let server, status.elapsed - lastPublished >= 0.25 {
                lastPublished = status.elapsed
                server.publish(status.json())
            }
        }
        func report(_ issue: BroadcastIssue, as kind: String) {
            var text = issue.message
            if let location = issue.location, !text.contains(location) { text += " (\(location))" }
            display.interrupt("\(kind) from \(issue.element): \(text)")
            if let debug = issue.debug, !quiet { display.interrupt("  \(debug)") }
        }

        broadcast.stopOnInterrupt()
        let inputs = Self.inputs(of: broadcast)
        let timer = duration.map { seconds in
            Task {
                try await Task.sleep(for: .seconds(seconds))
                try await broadcast.stop(timeout: nil)
            }
        }
        defer { timer?.cancel() }
        // A start that fails ends the broadcast: its error comes as an event, the ending below.
        try? await broadcast.start()
        /// An output failed and the others are finishing (rtmpreconnectsink gave up).
        var finishing = false
        for await input in inputs {
            guard case .event(let event) = input else {
                refresh()
                continue
            }
            status.note(event)
            switch event {
            case .endOfStream:
                if finishing { display.interrupt("the other outputs finished") }
            case .error(let issue):
                if broadcast.rtmpOutputs.contains(where: { $0.element == issue.element && $0.isUnreached }) {
                    display.interrupt("ERROR: \(issue.message)")
                } else {
                    report(issue, as: "ERROR")
                    finishing = true
                }
            case .warning(let issue):
                report(issue, as: "WARNING")
            default:
                refresh()
            }
        }
        let exitStatus: Int32
        switch await broadcast.waitUntilEnded() {
        case .endOfStream:
            exitStatus = 0
        case .cancelled:
            display.interrupt("stopped at once on a second Ctrl-C: the outputs are not finished")
            exitStatus = 130
        case .failed, .timedOut:
            exitStatus = 1
        }
        status.traffic = broadcast.traffic
        status.rtmp = broadcast.rtmpOutputs
        // status.srt stays as last read while playing: a closed srtsink's statistics are gone.
        display.finish(status)
        if let recorder, let trace { return Self.write(recorder, to: trace) ?? exitStatus }
        return exitStatus
    }

    /// The broadcast's events and a tick every 100 ms, in one stream; it finishes with the events.
    private static func inputs(of broadcast: Broadcast) -> AsyncStream<Input> {
        AsyncStream { continuation in
            let ticks = Task {
                while (try? await Task.sleep(for: .milliseconds(100))) != nil { continuation.yield(.tick) }
            }
            Task {
                for await event in broadcast.events { continuation.yield(.event(event)) }
                ticks.cancel()
                continuation.finish()
            }
        }
    }

    /// Writes the trace; nil when written, else the exit status after saying why.
    private static func write(_ recorder: TraceRecorder, to path: String) -> Int32? {
        recorder.detach()
        let text = recorder.text
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("replaycast: cannot write the trace to \(path): \(error.localizedDescription)\n".utf8))
            return 1
        }
        print("trace: \(recorder.sampleCount) sample buffers written to \(path)")
        return nil
    }

    private func makeBroadcast() throws -> Broadcast {
        do {
            if let origin { return try Broadcast(origin) }
            return try Broadcast(description: description)
        } catch {
            throw Failure(description: Self.text(of: error))
        }
    }

    /// A missing element in gst-launch's own words after the file and line
    /// (`x.pipeline:3: no element "volumemeterz"`), as users of gst-launch-1.0 know it.
    private static func text(of error: BroadcastError) -> String {
        switch error {
        case .missingElement(let name, let location): (location.map { "\($0): " } ?? "") + "no element \"\(name)\""
        case .registration: "the replaycast plugin failed to register"
        default: error.description
        }
    }

    /// A server for the folder of the pipeline's (first) HLS playlist.
    private static func previewServer(_ address: String, for broadcast: Broadcast, title: String) throws -> PreviewServer {
        guard let playlist = broadcast.hlsOutputs.first?.playlist, !playlist.isEmpty else {
            throw Failure(description: "--serve needs an hlssink2 in the pipeline: it serves the HLS output")
        }
        let folder = (playlist as NSString).deletingLastPathComponent
        // The broadcast makes its HLS folders when it starts; the server, started first, makes this one.
        do {
            try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "--serve: cannot make the output folder \(folder): \(error.localizedDescription)")
        }
        let page = PreviewPage.html(title: (title as NSString).lastPathComponent, playlist: (playlist as NSString).lastPathComponent)
        return try PreviewServer(address: address, folder: folder.isEmpty ? "." : folder, page: page)
    }
}
