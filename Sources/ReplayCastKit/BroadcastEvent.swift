// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel

/// What a running broadcast reports, in the order its pipeline posted it. Every case is a
/// plain value: events can go to any task or actor.
public enum BroadcastEvent: Sendable, Equatable {
    /// replaykitsrc started the broadcast (broadcastStarted(withSetupInfo:)).
    case started(BroadcastSetup)
    case paused(BroadcastMoment)
    case resumed(BroadcastMoment)
    /// The broadcast finished: every stream ends; the pipeline reaches end of stream after.
    case finished(BroadcastMoment)
    /// The screen's orientation changed (the video carries the new image-orientation tag).
    case orientationChanged(VideoOrientation, BroadcastMoment)
    /// The mic switched format (AirPods connecting or leaving); nil channels: unchanged.
    case micFormatChanged(rate: Int, channels: Int?, BroadcastMoment)
    /// Another change of the emulated device: a call starting or ending, the mic's mode.
    case changed(BroadcastAction, BroadcastMoment)
    /// A volumemeter (or GStreamer level) interval.
    case meter(MeterReading)
    /// A dualmixer interval (`post-levels=true`).
    case mixerLevels(MixerLevels)
    /// hlssink2 closed a segment file, or llhlssink listed a complete segment.
    case segmentWritten(HLSSegment)
    /// What an rtmpreconnectsink's connection did.
    case rtmp(RTMPEvent)
    case warning(BroadcastIssue)
    /// An element failed. The broadcast ends: the events stream finishes after this (and
    /// after `endOfStream`, when the outputs could still finish, as after rtmpreconnectsink
    /// gave up).
    case error(BroadcastIssue)
    /// Every output finished: files are complete. The events stream finishes after this.
    case endOfStream
}

/// The broadcast as replaykitsrc started it.
public struct BroadcastSetup: Sendable, Equatable {
    /// The emulated device profile, e.g. `iphone-11-ios17`.
    public var device: String
    public var width: Int
    public var height: Int
    public var isLive: Bool
    /// The setup info handed to broadcastStarted, in GstStructure text, when set.
    public var setupInfo: String?
}

/// When a lifecycle event happened.
public struct BroadcastMoment: Sendable, Equatable {
    /// Since the broadcast started (pauses included).
    public var broadcastTime: Duration
    /// The pipeline's running time.
    public var runningTime: Duration
}

/// One dualmixer interval: levels per output channel in dBFS (floor −200).
public struct MixerLevels: Sendable, Equatable {
    public enum InputState: String, Sendable {
        /// Data.
        case active
        /// Data, all digital silence (ReplayKit's other "mic off").
        case silent
        /// No data: unlinked, ended, late, or a gap.
        case absent
    }

    public struct Levels: Sendable, Equatable {
        public var rms: [Double]
        public var peak: [Double]
    }

    public var element: String
    public var runningTime: Duration
    public var duration: Duration
    /// The inputs as they arrive (before volume and mute), and the output.
    public var app: Levels
    public var mic: Levels
    public var mix: Levels
    public var appState: InputState?
    public var micState: InputState?
}

/// A finished HLS segment.
public struct HLSSegment: Sendable, Equatable {
    /// The hlssink2 or llhlssink that wrote it.
    public var element: String
    /// The segment file's path.
    public var location: String
    /// Its number: hlssink2 counts from 0; llhlssink gives the media sequence number, the
    /// same in every rendition for segments of the same time.
    public var index: Int
    /// Running time at the segment's end.
    public var runningTime: Duration
    /// llhlssink's rendition (the pad's name, as `video_0`); nil for hlssink2.
    public var rendition: String? = nil
    /// Its size in bytes; nil for hlssink2.
    public var bytes: Int? = nil
    /// Its duration; nil for hlssink2.
    public var duration: Duration? = nil
}

/// rtmpreconnectsink's connection, for the element named `element` publishing to `location`.
public struct RTMPEvent: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// The server accepted the stream for the first time (after `attempt` retries).
        case connected(attempt: Int)
        /// A stream the server had accepted broke.
        case disconnected(reason: String)
        /// Retry `attempt` starts after `delay`; `retries` nil: for ever.
        case reconnecting(attempt: Int, delay: Duration, retries: Int?, reason: String)
        /// The server accepted the stream again.
        case reconnected(attempt: Int, downtime: Duration, dropped: Int)
        /// adaptive-bitrate set the video encoder's bitrate.
        case bitrateChanged(BitrateChange)
    }

    public var element: String
    public var location: String
    public var change: Change
}

/// adaptive-bitrate's change of the video encoder's bitrate, in kbit/s.
public struct BitrateChange: Sendable, Equatable {
    public var old: Int
    public var new: Int
    /// True when the link fell behind (media waited to be sent); false when it kept up
    /// long enough for a step back up.
    public var congested: Bool
    /// Media waiting to be sent when decided: in front of the sender and in the kernel's
    /// send buffer.
    public var queued: Duration
    /// What the server acknowledged over the last second.
    public var sendRate: Int
    /// The encoder whose `bitrate` was set.
    public var encoder: String
}

/// An error or warning an element posted.
public struct BroadcastIssue: Sendable, Equatable, CustomStringConvertible {
    /// The name of the element that posted it.
    public var element: String
    public var message: String
    /// GStreamer's debug text (where in the code, details), when there is some.
    public var debug: String?
    /// The GError domain (e.g. `gst-resource-error-quark`) and code.
    public var domain: String
    public var code: Int
    /// The `location` or `uri` of the element that posted it, or of its nearest container
    /// with one (a file, an HLS segment pattern, an RTMP or SRT URL): what could not be
    /// reached, which GStreamer's message does not always say.
    public var location: String? = nil

    public var description: String { "\(element): \(message)" }
}
