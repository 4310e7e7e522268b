// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// How a broadcast ended.
public enum BroadcastEnding: Sendable, Equatable {
    /// Every output finished (end of stream): playlists and files are complete.
    case endOfStream
    /// An element failed; the outputs may be incomplete.
    case failed(BroadcastIssue)
    /// `stop()`'s end-of-stream did not get through in time: the pipeline was stopped anyway.
    case timedOut
    /// `cancel()`, the consuming task was cancelled, or the `Broadcast` was released.
    case cancelled
}

/// A ReplayCast broadcast in an app: a GStreamer pipeline with typed events and controls.
///
///     let broadcast = try Broadcast(pipelineFile: "pipelines/broadcast-hls.pipeline", variables: ["OUT": folder])
///     try await broadcast.start()
///     for await event in broadcast.events { … }
///
/// Runs on no particular actor: every method may be called from any task or thread. The
/// elements are registered in-process on first use, so nothing needs installing. The
/// broadcast reads its pipeline's bus itself (don't add a bus watch of your own), and runs
/// once: `start()` after it ended is an error. Releasing it, or cancelling the task that
/// reads `events`, stops the pipeline.
public final class Broadcast: Sendable {
    /// Everything the broadcast reports, in order; finishes when the broadcast has ended.
    /// One consumer: read it from one task.
    public let events: AsyncStream<BroadcastEvent>
    let core: BroadcastCore

    /// A broadcast from a pipeline description file (gst-launch syntax, `#` comments,
    /// `${NAME:-default}` placeholders filled from `variables`).
    public convenience init(pipelineFile path: String, variables: [String: String] = [:]) throws(BroadcastError) {
        let file: PipelineFile
        do {
            file = try PipelineFile(path: path, variables: variables)
        } catch {
            throw .pipelineFile(error.variable.map { "\(error): give the variable \($0) a value" } ?? error.description)
        }
        try self.init(file)
    }

    /// A broadcast from a pipeline file read already, e.g. to report a placeholder without a
    /// value in your own words. Parse errors name the file and line.
    public convenience init(_ file: PipelineFile) throws(BroadcastError) {
        self.init(owning: try Self.parse(file.description, origin: file))
    }

    /// A broadcast from a description in gst-launch syntax.
    public convenience init(description: String) throws(BroadcastError) {
        self.init(owning: try Self.parse(description, origin: nil))
    }

    /// A broadcast around an existing pipeline, set up fully and in NULL. The broadcast takes
    /// a reference as gst_bin_add does: a floating one is sunk (the broadcast owns it), a
    /// normal one stays the caller's to drop.
    public convenience init(pipeline: UnsafeMutablePointer<GstElement>) throws(BroadcastError) {
        try Self.register()
        self.init(owning: gst_object_ref_sink(pipeline).assumingMemoryBound(to: GstElement.self))
    }

    private init(owning pipeline: UnsafeMutablePointer<GstElement>) {
        HLSPlaylists.take(over: pipeline)
        var continuation: AsyncStream<BroadcastEvent>.Continuation!
        events = AsyncStream { continuation = $0 }
        core = BroadcastCore(pipeline: pipeline, continuation: continuation)
        continuation.onTermination = { [weak core] termination in
            if case .cancelled = termination { core?.requestCancel() }
        }
    }

    deinit { core.cancelAndWait() }

    /// The pipeline, for what the typed API does not cover. Owned by the broadcast.
    public var pipeline: UnsafeMutablePointer<GstElement> { core.pipeline }

    /// Sets the pipeline playing and returns once it plays.
    /// - Throws: `alreadyStarted`, or `failedToStart` with the element's error.
    public func start() async throws(BroadcastError) {
        guard core.start() else { throw .alreadyStarted }
        switch await core.waitUntilPlaying() {
        case nil: return
        case .failed(let issue)?: throw .failedToStart(issue)
        case let ending?: throw .notRunning("start: the broadcast ended (\(ending)) before it played")
        }
    }

    /// Sets the pipeline playing and returns at once, for a reader whose own time limit must
    /// hold: decodebin holds the state change until it has a stream, which a live source
    /// (an SRT listener nobody calls, a silent UDP port) may never give. A failure shows in
    /// the ending.
    package func startWithoutWaiting() { _ = core.start() }

    /// Ends the broadcast cleanly: end-of-stream goes through the pipeline, so every output
    /// is finished (HLS playlists get EXT-X-ENDLIST, files are closed), then the pipeline
    /// stops. After `timeout` it is stopped anyway (`.timedOut`); nil waits as long as the
    /// outputs take (a tool whose user can `cancel()` instead, as with a second Ctrl-C).
    /// Returns how it ended; calling it again returns the same, and sends nothing again.
    @discardableResult
    public func stop(timeout: Duration? = .seconds(10)) async throws(BroadcastError) -> BroadcastEnding {
        if case .idle = core.phase { throw .notRunning("stop") }
        core.requestStop(within: timeout)
        return await core.waitUntilEnded()
    }

    /// Stops the pipeline at once, outputs as they are.
    @discardableResult
    public func cancel() async -> BroadcastEnding {
        core.requestCancel()
        return await core.waitUntilEnded()
    }

    /// Waits for the broadcast to end by itself (end of stream, an error) or by `stop()`.
    public func waitUntilEnded() async -> BroadcastEnding {
        await core.waitUntilEnded()
    }

    /// Whether the broadcast has been started and has not ended.
    public var isRunning: Bool {
        if case .running = core.phase { return true }
        return false
    }

    private static func register() throws(BroadcastError) {
        gst_init(nil, nil)
        guard replaycast_init() != 0 else { throw .registration }
    }

    private static func parse(_ description: String, origin: PipelineFile?) throws(BroadcastError) -> UnsafeMutablePointer<GstElement> {
        try register()
        var error: UnsafeMutablePointer<GError>?
        let parsed = gst_parse_launch(description, &error)
        if let failure = error {
            let text = String(cString: failure.pointee.message)
            let missing = failure.pointee.domain == gst_parse_error_quark()
                && failure.pointee.code == gint(GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue)
            g_clear_error(&error)
            if let parsed { gst_object_unref(parsed) }
            let location = origin.map { file in file.line(for: text).map { "\(file.path):\($0)" } ?? file.path }
            if missing, let name = text.split(separator: "\"").dropFirst().first {
                throw .missingElement(String(name), location: location)
            }
            throw .invalidPipeline(location.map { "\($0): \(text)" } ?? text)
        }
        guard let parsed = parsed.map({ gst_object_ref_sink($0).assumingMemoryBound(to: GstElement.self) }) else {
            throw .invalidPipeline("empty pipeline")
        }
        let isPipeline = g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(parsed)),
                                                    gst_pipeline_get_type()) != 0
        if isPipeline { return parsed }
        // A description of one element parses to that element alone.
        let pipeline = gst_object_ref_sink(gst_pipeline_new(nil)).assumingMemoryBound(to: GstElement.self)
        gst_bin_add(rc_bin(pipeline), parsed)
        gst_object_unref(parsed)
        return pipeline
    }
}
