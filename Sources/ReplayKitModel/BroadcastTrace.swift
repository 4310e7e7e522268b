// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// What an upload extension received: every sample buffer (its type, time, duration and
/// format) and the lifecycle, in the order they arrived. Written one JSON object per line
/// (docs/replaykitsrc.md, "Device traces", gives the format and the Apple API each field is
/// read from); `TraceReader` reads and checks it, `TraceLine` writes it.
///
/// Times here are nanoseconds since the broadcast started: the `started` line's time, or the
/// earliest time in the trace when that line has none (a device's times are host time, whose
/// origin means nothing here).
public struct BroadcastTrace: Sendable, Equatable {
    public static let format = "replaycast-broadcast-trace"
    public static let version = 1

    /// RPSampleBufferType.
    public enum SampleType: String, Sendable, CaseIterable {
        case video, audioApp, audioMic

        /// The replaykitsrc pad that carries it.
        public var streamIndex: Int {
            switch self {
            case .video: 0
            case .audioApp: 1
            case .audioMic: 2
            }
        }
    }

    /// 16-bit integer PCM as an AudioStreamBasicDescription gives it.
    public struct AudioFormat: Sendable, Equatable {
        public var rate: Int
        public var channels: Int
        public var format: SampleFormat

        public init(rate: Int, channels: Int, format: SampleFormat) {
            self.rate = rate
            self.channels = channels
            self.format = format
        }
    }

    public enum Content: Sendable, Equatable {
        case video(width: Int, height: Int, orientation: VideoOrientation)
        case audio(AudioFormat, frames: Int)
    }

    public struct Sample: Sendable, Equatable {
        public var type: SampleType
        public var time: UInt64
        /// Nil when the buffer had none (ReplayKit's video buffers often carry an invalid one).
        public var duration: UInt64?
        public var content: Content
        /// Where it was read from (1-based), for messages.
        public var line: Int

        public init(type: SampleType, time: UInt64, duration: UInt64?, content: Content, line: Int = 0) {
            self.type = type
            self.time = time
            self.duration = duration
            self.content = content
            self.line = line
        }

        /// The end of an audio buffer: its duration, or its frame count at its rate.
        public var audioEnd: UInt64? {
            guard case .audio(let format, let frames) = content else { return nil }
            return time + (duration ?? Timebase.nanoseconds(UInt64(frames), atRate: UInt64(format.rate), .nearest))
        }
    }

    /// Pause, resume and finish, in time order (the broadcast callbacks after broadcastStarted).
    public var events: [BroadcastSchedule.Event]
    /// In the order the trace gives them.
    public var samples: [Sample]
    /// broadcastStarted's setup info: the object the trace gives, if any.
    public var setupInfo: [(key: String, value: JSONValue)]

    public init(events: [BroadcastSchedule.Event], samples: [Sample], setupInfo: [(key: String, value: JSONValue)] = []) {
        self.events = events
        self.samples = samples
        self.setupInfo = setupInfo
    }

    public static func == (a: BroadcastTrace, b: BroadcastTrace) -> Bool {
        a.events == b.events && a.samples == b.samples && JSONValue.object(a.setupInfo) == JSONValue.object(b.setupInfo)
    }

    public func samples(of type: SampleType) -> [Sample] { samples.filter { $0.type == type } }

    /// When the broadcast finishes: the `finished` line, else the end of the last sample; a
    /// video sample without a duration lasts `frameDuration(time)`.
    public func finishTime(frameDuration: (UInt64) -> UInt64) -> UInt64 {
        if let finish = events.first(where: { $0.action == .finish }) { return finish.time }
        return samples.map { $0.audioEnd ?? $0.time + ($0.duration ?? frameDuration($0.time)) }.max() ?? 0
    }

    /// The first video sample's size; nil when the trace has no video.
    public var screenSize: (width: Int, height: Int)? {
        for sample in samples { if case .video(let width, let height, _) = sample.content { return (width, height) } }
        return nil
    }

    /// The first format of an audio stream; nil when the trace has none of it.
    public func firstFormat(of type: SampleType) -> AudioFormat? {
        for sample in samples where sample.type == type { if case .audio(let format, _) = sample.content { return format } }
        return nil
    }
}
