// SPDX-License-Identifier: LGPL-2.1-or-later
/// Frame pacing of a decoded video stream, from the frame number each output frame carries
/// in its `FrameBarcode` strip.
///
/// Feed it every output frame in presentation order: its time, its duration and the frame
/// number its strip reads as (nil when the strip does not read). replaykitsrc numbers the
/// screen frames it delivers 0, 1, 2, …; on an animated screen (a frame every 1/30 s) an
/// output at 30 fps should show each number once, in order. Between two consecutive output
/// frames that both read:
/// - the same number is a **repeat**: the output showed the same screen frame again because
///   no newer one was there in time (held back upstream, or the screen did not change:
///   a static or idle screen, or a pause, repeats by design);
/// - a number more than one higher **misses** the numbers in between (frames dropped on
///   the way): `missing` counts the numbers skipped;
/// - a lower number goes **backwards** (frames out of order).
///
/// A frame whose strip does not read is counted as `unreadable` and nothing is guessed:
/// the steps into and out of it count as neither repeat nor miss, and it ends a freeze.
///
/// A **freeze** is a run of consecutive output frames showing the same number; it lasts
/// from its first frame to the next output frame (the stream's last run: to the end of its
/// last frame). A run of one frame is a frame shown for its normal duration.
public struct FramePacing: Sendable {
    public struct Counts: Sendable, Equatable {
        public var repeated = 0
        public var missing = 0
        public var backwards = 0

        public init(repeated: Int = 0, missing: Int = 0, backwards: Int = 0) {
            self.repeated = repeated
            self.missing = missing
            self.backwards = backwards
        }
    }

    public struct Freeze: Sendable, Equatable {
        public var frameNumber: UInt32
        /// Output frames in the run.
        public var frames: Int
        /// Time of its first frame and how long the run lasts, seconds.
        public var start: Double
        public var duration: Double
    }

    public struct Summary: Sendable, Equatable {
        /// Frames whose strip read, and those whose strip did not.
        public var read: Int
        public var unreadable: Int
        public var counts: Counts
        /// The longest run (the earliest of equally long ones); nil when no frame read.
        public var longestFreeze: Freeze?
    }

    /// How many output frames on each side of a time `counts(around:)` looks at by default.
    public static let reach = 5

    private struct Frame: Sendable {
        var time: Double
        var duration: Double?
        var number: UInt32?
    }

    private var frames: [Frame] = []

    public init() {}

    public var frameCount: Int { frames.count }

    /// `time` and `duration` in seconds; `duration` nil when the stream does not say (the
    /// interval from the frame before stands in for it where one is needed).
    public mutating func add(time: Double, duration: Double?, frameNumber: UInt32?) {
        frames.append(Frame(time: time, duration: duration, number: frameNumber))
    }

    public func summary() -> Summary {
        let read = frames.count(where: { $0.number != nil })
        return Summary(read: read, unreadable: frames.count - read, counts: counts(steps: frames.indices.dropFirst()),
                       longestFreeze: longestFreeze())
    }

    /// Repeats, misses and backward steps among the output frames from `reach` before the
    /// frame at `time` (the one nearest to it) to `reach` after it: the 2 · `reach` steps
    /// between those frames.
    public func counts(around time: Double, reach: Int = Self.reach) -> Counts {
        guard let center = nearestIndex(to: time) else { return Counts() }
        let first = max(0, center - reach), last = min(frames.count - 1, center + reach)
        return counts(steps: (first + 1) ..< (last + 1))
    }

    private enum Step {
        case next, repeated, missing(Int), backwards, unjudged
    }

    /// The step from frame `index - 1` to frame `index`.
    private func step(into index: Int) -> Step {
        guard let before = frames[index - 1].number, let number = frames[index].number else { return .unjudged }
        if number == before { return .repeated }
        if number < before { return .backwards }
        return number - before == 1 ? .next : .missing(Int(number - before - 1))
    }

    private func counts(steps: some Sequence<Int>) -> Counts {
        var counts = Counts()
        for index in steps {
            switch step(into: index) {
            case .repeated: counts.repeated += 1
            case .missing(let skipped): counts.missing += skipped
            case .backwards: counts.backwards += 1
            case .next, .unjudged: break
            }
        }
        return counts
    }

    private func longestFreeze() -> Freeze? {
        var longest: Freeze?
        var start = 0
        while start < frames.count {
            guard let number = frames[start].number else {
                start += 1
                continue
            }
            var end = start + 1
            while end < frames.count, frames[end].number == number { end += 1 }
            if end - start > longest?.frames ?? 0 {
                longest = Freeze(frameNumber: number, frames: end - start, start: frames[start].time,
                                 duration: endTime(ofRunBefore: end) - frames[start].time)
            }
            start = end
        }
        return longest
    }

    /// When the run that ends before frame `end` stops showing: the next frame's time, or
    /// for the last frame its end.
    private func endTime(ofRunBefore end: Int) -> Double {
        if end < frames.count { return frames[end].time }
        let last = frames[end - 1]
        let interval = end >= 2 ? last.time - frames[end - 2].time : 0
        return last.time + (last.duration ?? interval)
    }

    private func nearestIndex(to time: Double) -> Int? {
        guard !frames.isEmpty else { return nil }
        // Frames come in presentation order: binary search for the first at or after `time`.
        var low = 0, high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle].time < time { low = middle + 1 } else { high = middle }
        }
        if low == frames.count { return low - 1 }
        if low > 0, time - frames[low - 1].time < frames[low].time - time { return low - 1 }
        return low
    }
}
