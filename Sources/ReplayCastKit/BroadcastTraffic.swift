// SPDX-License-Identifier: LGPL-2.1-or-later
/// What has gone through a broadcast so far, as a status screen shows it. Read it with
/// `Broadcast.traffic` as often as you like: the counts are kept by pad probes (an atomic
/// add per buffer on the streaming threads) and by the broadcast's bus thread, never by
/// asking the elements.
public struct BroadcastTraffic: Sendable, Equatable {
    /// Video frames every `replaykitsrc` delivered (its `video` pad).
    public var framesIn: Int
    /// Frames every video encoder (an element classed `Encoder/Video`) put out.
    public var framesOut: Int
    /// Bytes every encoder, audio and video, put out: the broadcast's size before muxing.
    public var encodedBytes: Int
    /// Frames the elements reported dropped in their QoS messages (each reports its own
    /// running total; this adds the latest totals up).
    public var droppedFrames: Int

    public init(framesIn: Int = 0, framesOut: Int = 0, encodedBytes: Int = 0, droppedFrames: Int = 0) {
        self.framesIn = framesIn
        self.framesOut = framesOut
        self.encodedBytes = encodedBytes
        self.droppedFrames = droppedFrames
    }

    /// The encoders' output in bits per second, averaged over `elapsed` (0 before any time passed).
    public func bitrate(over elapsed: Duration) -> Double {
        elapsed > .zero ? Double(encodedBytes) * 8 / elapsed.seconds : 0
    }
}
