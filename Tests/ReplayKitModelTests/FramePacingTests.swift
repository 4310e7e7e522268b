// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel
import Testing

@Suite struct FramePacingTests {
    static let period = 1.0 / 30

    /// Output frame k at k / 30 s lasting 1/30 s, showing `numbers[k]` (nil: unreadable).
    static func pacing(_ numbers: [UInt32?], durations: Bool = true) -> FramePacing {
        var pacing = FramePacing()
        for (index, number) in numbers.enumerated() {
            pacing.add(time: Double(index) * period, duration: durations ? period : nil, frameNumber: number)
        }
        return pacing
    }

    static func expectFreeze(_ freeze: FramePacing.Freeze?, number: UInt32, frames: Int, startFrame: Int,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        guard let freeze else {
            Issue.record("no freeze", sourceLocation: sourceLocation)
            return
        }
        #expect(freeze.frameNumber == number, sourceLocation: sourceLocation)
        #expect(freeze.frames == frames, sourceLocation: sourceLocation)
        #expect(abs(freeze.start - Double(startFrame) * period) < 1e-9, sourceLocation: sourceLocation)
        #expect(abs(freeze.duration - Double(frames) * period) < 1e-9, sourceLocation: sourceLocation)
    }

    @Test func steadyStreamHasNothingToReport() {
        let summary = Self.pacing((100 ..< 160).map { $0 }).summary()
        #expect(summary.read == 60)
        #expect(summary.unreadable == 0)
        #expect(summary.counts == FramePacing.Counts())
        // Every run is one frame long: the first is the longest.
        Self.expectFreeze(summary.longestFreeze, number: 100, frames: 1, startFrame: 0)
    }

    @Test func repeatsCountEveryFrameThatShowsTheNumberBeforeAgain() {
        let summary = Self.pacing([0, 1, 1, 2, 3, 3, 3, 4, 5, 5]).summary()
        #expect(summary.counts == FramePacing.Counts(repeated: 4, missing: 0))
        Self.expectFreeze(summary.longestFreeze, number: 3, frames: 3, startFrame: 4)
    }

    @Test func jumpsCountTheNumbersSkipped() {
        let summary = Self.pacing([0, 1, 4, 5, 7, 8, 8]).summary()
        #expect(summary.counts == FramePacing.Counts(repeated: 1, missing: 3))
        Self.expectFreeze(summary.longestFreeze, number: 8, frames: 2, startFrame: 5)
    }

    @Test func backwardStepsAreNeitherRepeatsNorMisses() {
        let summary = Self.pacing([10, 11, 9, 10, 11]).summary()
        #expect(summary.counts == FramePacing.Counts(repeated: 0, missing: 0, backwards: 1))
    }

    @Test func unreadableFramesAreCountedNotGuessed() {
        // 1 → ? → 3 might be 1, 2, 3 or 1, 1, 3: neither a miss nor a repeat is counted.
        let summary = Self.pacing([0, 1, nil, 3, 4, nil, nil, 9]).summary()
        #expect(summary.read == 5)
        #expect(summary.unreadable == 3)
        #expect(summary.counts == FramePacing.Counts())
    }

    @Test func anUnreadableFrameEndsAFreeze() {
        let summary = Self.pacing([4, 5, 5, nil, 5, 5, 5, 6]).summary()
        #expect(summary.counts == FramePacing.Counts(repeated: 3))
        Self.expectFreeze(summary.longestFreeze, number: 5, frames: 3, startFrame: 4)
    }

    @Test func freezeAtTheStart() {
        let summary = Self.pacing([7, 7, 7, 7, 8, 9, 10]).summary()
        #expect(summary.counts == FramePacing.Counts(repeated: 3))
        Self.expectFreeze(summary.longestFreeze, number: 7, frames: 4, startFrame: 0)
    }

    @Test func freezeAtTheEndLastsToTheEndOfItsLastFrame() {
        let numbers: [UInt32?] = [1, 2, 3, 3, 3, 3, 3]
        let summary = Self.pacing(numbers).summary()
        #expect(summary.counts == FramePacing.Counts(repeated: 4))
        Self.expectFreeze(summary.longestFreeze, number: 3, frames: 5, startFrame: 2)
        // Without durations the interval from the frame before stands in for the last one's.
        Self.expectFreeze(Self.pacing(numbers, durations: false).summary().longestFreeze, number: 3, frames: 5, startFrame: 2)
    }

    @Test func equallyLongFreezesReportTheEarliest() {
        let summary = Self.pacing([1, 1, 2, 3, 3, 4]).summary()
        Self.expectFreeze(summary.longestFreeze, number: 1, frames: 2, startFrame: 0)
    }

    @Test func aFreezeLastsUntilTheNextFrameEvenAcrossAGapInTime() {
        var pacing = FramePacing()
        pacing.add(time: 0, duration: Self.period, frameNumber: 1)
        pacing.add(time: Self.period, duration: Self.period, frameNumber: 1)
        pacing.add(time: 1, duration: Self.period, frameNumber: 2)
        let freeze = pacing.summary().longestFreeze
        #expect(freeze?.frames == 2)
        #expect(freeze?.duration == 1)
    }

    @Test func noFramesOrNoneReadableHaveNoFreeze() {
        for (numbers, unreadable) in [([UInt32?](), 0), ([nil, nil], 2)] {
            let summary = Self.pacing(numbers).summary()
            #expect(summary.read == 0)
            #expect(summary.unreadable == unreadable)
            #expect(summary.counts == FramePacing.Counts())
            #expect(summary.longestFreeze == nil)
        }
    }

    /// A mark's flash on output frame 30: what happened within five frames of it counts, what
    /// happened further away does not.
    @Test func countsAroundATimeLookFiveFramesEachWay() {
        // Repeats on frames 10 (far before), 28 (two before the flash: the flash held back)
        // and 45 (far after); frame 32 skips two numbers.
        let repeats: Set = [10, 28, 45], skips = [32: UInt32(2)]
        var numbers: [UInt32?] = [0]
        for index in 1 ..< 60 {
            numbers.append(numbers[index - 1]! + (repeats.contains(index) ? 0 : 1 + (skips[index] ?? 0)))
        }
        let pacing = Self.pacing(numbers)
        #expect(pacing.summary().counts == FramePacing.Counts(repeated: 3, missing: 2))
        let flash = 30 * Self.period
        #expect(pacing.counts(around: flash) == FramePacing.Counts(repeated: 1, missing: 2))
        // The nearest frame stands for a time between frames.
        #expect(pacing.counts(around: flash + 0.4 * Self.period) == FramePacing.Counts(repeated: 1, missing: 2))
        // The window's edges: frame 25 to 35 holds the steps into 26…35.
        #expect(pacing.counts(around: 33 * Self.period) == FramePacing.Counts(repeated: 0, missing: 2))
        #expect(pacing.counts(around: 23 * Self.period) == FramePacing.Counts(repeated: 1, missing: 0))
        #expect(pacing.counts(around: 22 * Self.period) == FramePacing.Counts(repeated: 0, missing: 0))
        #expect(pacing.counts(around: 30 * Self.period, reach: 1) == FramePacing.Counts())
        // Near the ends the window is cut short.
        #expect(Self.pacing([0, 0, 1, 2, 3, 4, 5, 6]).counts(around: 0) == FramePacing.Counts(repeated: 1))
        #expect(FramePacing().counts(around: 1) == FramePacing.Counts())
    }
}
