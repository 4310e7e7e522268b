// SPDX-License-Identifier: LGPL-2.1-or-later
/// Why a broadcast could not be built, started or controlled.
public enum BroadcastError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pipeline file could not be read, or a placeholder had no value (`path:line: …`).
    case pipelineFile(String)
    /// The description names an element GStreamer does not have (a missing plugin, a typo);
    /// `location` is `path:line` for a pipeline file.
    case missingElement(String, location: String?)
    /// The description is not a valid pipeline (`path:line: …` for a file).
    case invalidPipeline(String)
    /// The elements could not be registered with GStreamer.
    case registration
    /// A control needs an element the pipeline does not have (e.g. `pause()` without
    /// replaykitsrc), or a pad it does not have.
    case notInPipeline(String)
    /// `start()` on a broadcast that was started before (a broadcast runs once).
    case alreadyStarted
    /// A control or `stop()` on a broadcast that is not running (never started, or ended).
    case notRunning(String)
    /// The element refused the request (its text says what).
    case refused(String)
    /// The pipeline failed while starting.
    case failedToStart(BroadcastIssue)

    public var description: String {
        switch self {
        case .pipelineFile(let text), .invalidPipeline(let text): text
        case .missingElement(let name, let location):
            (location.map { "\($0): " } ?? "") + "no element \"\(name)\": neither ReplayCast nor an installed GStreamer plugin has it"
        case .registration: "the ReplayCast elements could not be registered with GStreamer"
        case .notInPipeline(let what): "the pipeline has no \(what)"
        case .alreadyStarted: "the broadcast was started already: a broadcast runs once, make a new one"
        case .notRunning(let request): "cannot \(request): the broadcast is not running"
        case .refused(let text): text
        case .failedToStart(let issue): "the broadcast failed to start: \(issue)"
        }
    }
}
