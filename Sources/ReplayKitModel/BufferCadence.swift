// SPDX-License-Identifier: LGPL-2.1-or-later
/// How many frames each successive audio buffer of a stream holds.
///
/// ReplayKit hands audio over in fixed-size callbacks, but now and then one callback's worth
/// arrives as two buffers (the mic's 1024 frames as 955 + 69). A cadence with a split makes
/// every `every`-th callback arrive that way, so a period of `every` callbacks is
/// `every + 1` buffers and exactly `every · framesPerBuffer` frames: the split moves buffer
/// boundaries, never the amount of audio.
public struct BufferCadence: Sendable, Equatable {
    public struct Split: Sendable, Equatable {
        /// Every this many callbacks (≥ 1), the last one of the group is split.
        public var every: Int
        /// Frames in the first part; the second part holds the rest of the callback.
        public var first: Int

        public init(every: Int, first: Int) {
            precondition(every >= 1 && first >= 1, "a split needs every ≥ 1 and a non-empty first part")
            self.every = every
            self.first = first
        }
    }

    public var framesPerBuffer: Int
    public var split: Split?

    public init(framesPerBuffer: Int, split: Split? = nil) {
        precondition(framesPerBuffer >= 1, "buffers hold at least one frame")
        if let split { precondition(split.first < framesPerBuffer, "both parts of a split must be non-empty") }
        self.framesPerBuffer = framesPerBuffer
        self.split = split
    }

    /// Frames in buffer `index` (0-based, counted from the start of the stream).
    public func frames(ofBuffer index: Int) -> Int {
        guard let split else { return framesPerBuffer }
        let phase = index % (split.every + 1)
        if phase < split.every - 1 { return framesPerBuffer }
        return phase == split.every - 1 ? split.first : framesPerBuffer - split.first
    }

    /// Frames in buffers `0 ..< index`: where buffer `index` starts in the stream.
    public func startFrame(ofBuffer index: Int) -> Int64 {
        guard let split else { return Int64(index) * Int64(framesPerBuffer) }
        let period = split.every + 1
        var frames = Int64(index / period) * Int64(split.every) * Int64(framesPerBuffer)
        for phase in 0 ..< index % period { frames += Int64(self.frames(ofBuffer: phase)) }
        return frames
    }
}
