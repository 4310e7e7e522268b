// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastKit

/// What one broadcaster of a `Swarm` did, in the order it happened to that broadcaster.
/// Broadcasters run side by side, so two broadcasters' events interleave freely.
public struct SwarmEvent: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// Its pipeline plays: it publishes, or is connecting.
        case started
        /// One of its broadcast's own events (its connection's in `.rtmp`, over SRT as well).
        case broadcast(BroadcastEvent)
        /// It ended, or never started (the swarm stopped first, its pipeline could not be
        /// made): what the report holds for it. Its last event.
        case ended(SwarmRecord)
    }

    /// The broadcaster's number, from 1: the `{n}` of the URL.
    public var number: Int
    /// Since the swarm's start.
    public var at: Duration
    public var change: Change
}
