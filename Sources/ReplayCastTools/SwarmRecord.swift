// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit

/// What one broadcaster of a swarm did, as `--report` writes it.
public struct SwarmRecord: Codable, Sendable, Equatable {
    public struct Loss: Codable, Sendable, Equatable {
        /// Seconds since the swarm's start.
        public var at: Double
        public var reason: String
        /// Seconds until the server accepted the stream again (nil: it did not).
        public var downtime: Double?
        /// Buffers (audio and video) rtmpreconnectsink dropped meanwhile.
        public var dropped: Int?
    }

    public var number: Int
    public var url: String
    public var device: String
    /// Seconds after the swarm's start.
    public var start: Double
    public var schedule: String
    /// The name of its uplink, when the swarm has uplinks, and the bytes that uplink passed
    /// on to the ingest (the stream's framing, RTMP's or MPEG-TS's, included).
    public var uplink: String?
    public var uplinkBytes: Int?
    /// Times the server accepted the stream: the first connection and each reconnection.
    public var connections = 0
    /// Seconds since the swarm's start when the server first accepted the stream.
    public var connectedAt: Double?
    public var disconnections: [Loss] = []
    /// Video frames replaykitsrc delivered, frames the encoder made, and the bytes both
    /// encoders made.
    public var framesIn = 0
    public var frames = 0
    public var bytes = 0
    public var errors: [String] = []
    /// How it ended: `end-of-stream` (stopped at the end, or its schedule's finish),
    /// `failed`, `timed-out`, `cancelled`, or `not-started` (the swarm stopped before its
    /// start, or its pipeline could not be made: see `errors`).
    public var ending = "not-started"

    /// A broadcaster fails when it never reached its server, or ended any other way than
    /// with all its outputs finished. One the swarm stopped before its start did not fail.
    public var failed: Bool {
        !errors.isEmpty || (ending != "not-started" && (connections == 0 || ending != "end-of-stream"))
    }

    /// Seconds of every loss that came back.
    public var downtime: Double { disconnections.compactMap(\.downtime).reduce(0, +) }

    mutating func note(_ event: BroadcastEvent, at seconds: Double) {
        switch event {
        case .rtmp(let rtmp):
            switch rtmp.change {
            case .connected:
                connections += 1
                connectedAt = connectedAt ?? seconds
            case .disconnected(let reason):
                disconnections.append(Loss(at: seconds, reason: reason))
            case .reconnected(_, let downtime, let dropped):
                connections += 1
                if let last = disconnections.indices.last {
                    disconnections[last].downtime = downtime.seconds
                    disconnections[last].dropped = dropped
                }
            case .reconnecting, .bitrateChanged:
                break
            }
        case .error(let issue):
            errors.append(issue.description)
        default:
            break
        }
    }

    mutating func end(_ ending: BroadcastEnding, traffic: BroadcastTraffic) {
        switch ending {
        case .endOfStream: self.ending = "end-of-stream"
        case .failed: self.ending = "failed"
        case .timedOut: self.ending = "timed-out"
        case .cancelled: self.ending = "cancelled"
        }
        framesIn = traffic.framesIn
        frames = traffic.framesOut
        bytes = traffic.encodedBytes
    }

    /// One line of the final table.
    public var line: String {
        let losses = disconnections.isEmpty ? "" : ", \(disconnections.count) lost, \(String(format: "%.1f", downtime)) s down"
        let problems = errors.isEmpty ? "" : ": " + errors.joined(separator: "; ")
        return "\(String(format: "%4d", number)) \(device.padding(toLength: 16, withPad: " ", startingAt: 0)) "
            + "\(failed ? "FAILED" : "ok    ") \(String(format: "%5d frames %7.2f MB", frames, Double(bytes) / 1e6)), "
            + (uplink.map { String(format: "%.2f MB through %@, ", Double(uplinkBytes ?? 0) / 1e6, $0) } ?? "")
            + "\(connections) connection\(connections == 1 ? "" : "s")\(losses), \(ending)\(problems)"
    }
}
