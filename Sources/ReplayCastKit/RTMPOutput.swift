// SPDX-License-Identifier: LGPL-2.1-or-later
/// An RTMP output of a broadcast as it is now: an `rtmpreconnectsink` or an `rtmp2sink`.
/// `Broadcast.rtmpOutputs` reads the elements' own state (connection, counters) at the
/// moment of the call, and what their messages said so far.
public struct RTMPOutput: Sendable, Equatable {
    /// rtmpreconnectsink's `connection` property.
    public enum Connection: String, Sendable {
        case stopped, connecting, connected, waiting, failed
    }

    /// Why the attempts to reach the server failed so far: the last reason and how many.
    public struct Attempts: Sendable, Equatable {
        public var reason: String
        public var count: Int
    }

    /// The element's name in the pipeline.
    public var element: String
    /// The URL it publishes to.
    public var location: String
    /// An rtmpreconnectsink, which reconnects by itself and reports its connection; else an
    /// rtmp2sink, which reports only what it sent.
    public var reconnects: Bool
    /// rtmpreconnectsink: what its connection is doing.
    public var connection: Connection?
    /// rtmpreconnectsink: how often the connection came back after a loss.
    public var reconnections: Int
    /// rtmp2sink: the bytes it sent to the server (its `stats`).
    public var bytesSent: Int
    /// The element posted an error (rtmpreconnectsink gave up; rtmp2sink failed).
    public var failed: Bool
    /// rtmpreconnectsink: the server accepted the stream at least once.
    public var connected: Bool
    /// rtmpreconnectsink, until the server first accepted the stream: the failed attempts.
    public var notConnected: Attempts?
    /// rtmpreconnectsink with adaptive-bitrate: the last change of the video bitrate, and
    /// how many there were.
    public var bitrate: BitrateChange?
    public var bitrateChanges: Int

    /// An rtmpreconnectsink that never reached its server and said nothing about it (it
    /// ends quietly while still trying): a broadcast that ends so reached no one there.
    public var isUnreached: Bool { reconnects && !connected && !failed }
}
