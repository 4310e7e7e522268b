// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import MediaKernels

/// When to try again after an RTMP connection fails, and whether to: the decisions of
/// rtmpreconnectsink that depend on nothing but numbers, apart so tests can state them.
struct ReconnectPolicy: Equatable, Sendable {
    /// Attempts allowed after a loss before giving up; nil: for ever.
    var retries: Int?
    var firstDelay: UInt64
    var maxDelay: UInt64
    var factor: Double

    /// How long a stream must have been accepted before its end counts as a loss to recover
    /// from rather than a refusal: servers that refuse a stream key (nginx-rtmp's `deny
    /// publish`, `on_publish`) acknowledge the publish and close the connection straight away.
    static let acceptanceTime = Timebase.nanosecondsPerSecond

    /// The wait before attempt `attempt` (1 is the first retry): firstDelay × factor^(attempt−1),
    /// at most maxDelay.
    func delay(beforeAttempt attempt: Int) -> UInt64 {
        precondition(attempt >= 1)
        let grown = Double(firstDelay) * pow(factor, Double(attempt - 1))
        return grown >= Double(maxDelay) ? maxDelay : UInt64(grown)
    }

    func allows(attempt: Int) -> Bool { retries.map { attempt <= $0 } ?? true }

    /// The longest time a run of `retries` attempts can wait in all (nil when unbounded).
    var totalDelay: UInt64? {
        retries.map { n in (0..<n).reduce(UInt64(0)) { $0 + delay(beforeAttempt: $1 + 1) } }
    }
}

/// What rtmp2sink's error means for the connection.
enum ConnectionFailure: Equatable, Sendable {
    /// The server could not be reached (refused TCP connection, no route, no answer): try again.
    case unreachable
    /// The stream had been accepted and then the connection broke: try again.
    case lost
    /// The server turned the stream down (unknown application, stream key refused): retrying
    /// would only repeat it, so the element fails at once.
    case refused
    /// Not a connection problem (a muxer error): the element fails.
    case fatal

    /// `resourceCode` is the GstResourceError code when the error is in that domain;
    /// `acceptedFor` how long the server had accepted the stream (nil: never seen accepted).
    static func classify(fromSink: Bool, resourceCode: Int32?, acceptedFor: UInt64?) -> ConnectionFailure {
        guard fromSink, let code = resourceCode else { return fromSink ? .lost : .fatal }
        switch code {
        case ResourceCode.openRead, ResourceCode.openWrite, ResourceCode.openReadWrite, ResourceCode.notFound,
             ResourceCode.busy:
            return .unreachable
        case ResourceCode.failed, ResourceCode.notAuthorized:
            return .refused
        default:
            guard let acceptedFor, acceptedFor >= ReconnectPolicy.acceptanceTime else { return .refused }
            return .lost
        }
    }

    var retried: Bool { self == .unreachable || self == .lost }
}

/// GstResourceError's codes, as rtmp2sink reports a connection's failures with them.
enum ResourceCode {
    static let failed: Int32 = 1
    static let notFound: Int32 = 3
    static let busy: Int32 = 4
    static let openRead: Int32 = 5
    static let openWrite: Int32 = 6
    static let openReadWrite: Int32 = 7
    static let notAuthorized: Int32 = 15
}
