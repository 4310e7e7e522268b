// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel
import Testing

@Suite struct ScreenActivityTests {
    static let second: UInt64 = 1_000_000_000

    /// Every frame time in `0 ..< end`.
    static func frames(_ activity: ScreenActivity, until end: UInt64, fps: Int = 30) -> [UInt64] {
        var times: [UInt64] = []
        var last: UInt64?
        while let next = activity.nextFrameTime(after: last, maxFramesPerSecond: fps), next < end {
            times.append(next)
            last = next
        }
        return times
    }

    @Test func parsesTheThreeForms() throws {
        #expect(try ScreenActivity(parsing: "animated") == .animated)
        #expect(try ScreenActivity(parsing: " static ") == .static)
        let pattern = try ScreenActivity(parsing: "busy:2s, idle : 3s,busy:500ms")
        #expect(pattern.segments == [
            .init(busy: true, duration: 2 * Self.second), .init(busy: false, duration: 3 * Self.second),
            .init(busy: true, duration: Self.second / 2),
        ])
        #expect(pattern.description == "busy:2000ms,idle:3000ms,busy:500ms")
        #expect(try ScreenActivity(parsing: pattern.description) == pattern)
    }

    @Test func degeneratePatternsCollapse() throws {
        #expect(try ScreenActivity(parsing: "busy:1s,busy:2s") == .animated)
        #expect(try ScreenActivity(parsing: "idle:1s") == .static)
        #expect(ScreenActivity.animated.description == "animated")
        #expect(ScreenActivity.static.description == "static")
    }

    @Test(arguments: [
        ("", #"activity "": empty (expected animated, static or busy:<time>,idle:<time>…)"#),
        ("moving", #"activity segment 1 "moving": expected busy:<time> or idle:<time> (or the whole value animated or static)"#),
        ("busy:2s,idel:3s", #"activity segment 2 "idel:3s": unknown state "idel" (expected busy or idle)"#),
        ("busy:2s,", #"activity segment 2 "": expected busy:<time> or idle:<time> (or the whole value animated or static)"#),
        ("busy:0s,idle:1s", #"activity segment 1 "busy:0s": a segment must last longer than 0"#),
        ("busy:2,idle:1s", #"activity segment 1 "busy:2": bad time "2": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
    ])
    func malformedPatternsNameTheSegment(input: String, message: String) {
        #expect(throws: ScreenActivity.ParseError.self) { try ScreenActivity(parsing: input) }
        do { _ = try ScreenActivity(parsing: input) } catch { #expect(error.description == message) }
    }

    @Test func patternAnswersAtChosenTimes() throws {
        let activity = try ScreenActivity(parsing: "busy:2s,idle:3s")
        let s = Self.second
        let answers = [0, 2 * s - 1, 2 * s, 5 * s - 1, 5 * s, 7 * s, 10 * s + 1].map(activity.isChanging(at:))
        #expect(answers == [true, true, false, false, true, false, true])
        #expect(activity.nextChange(atOrAfter: s) == s)
        #expect(activity.nextChange(atOrAfter: 3 * s) == 5 * s)
        #expect(activity.nextChange(atOrAfter: 9 * s) == 10 * s)
        #expect(ScreenActivity.static.nextChange(atOrAfter: 0) == nil)
        #expect(ScreenActivity.animated.isChanging(at: 123_456_789))
    }

    @Test func animatedScreensSendEverySlotAt30fps() {
        let times = Self.frames(.animated, until: Self.second + 1)
        #expect(times.count == 31)
        #expect(Array(times.prefix(4)) == [0, 33_333_333, 66_666_666, 100_000_000])
        #expect(times.last == Self.second)
        // A late frame snaps back onto the grid.
        #expect(ScreenActivity.animated.nextFrameTime(after: 40_000_000, maxFramesPerSecond: 30) == 66_666_666)
        #expect(ScreenActivity.animated.nextFrameTime(after: 0, maxFramesPerSecond: 60) == 16_666_666)
    }

    @Test func staticScreensSendOnlyTheFirstFrame() {
        #expect(ScreenActivity.static.nextFrameTime(after: nil, maxFramesPerSecond: 30) == 0)
        #expect(ScreenActivity.static.nextFrameTime(after: 0, maxFramesPerSecond: 30) == nil)
    }

    @Test func busyPeriodsEndWithOneSettlingFrame() throws {
        let times = Self.frames(try ScreenActivity(parsing: "busy:1s,idle:1s"), until: 4 * Self.second)
        // Slots 0…29 inside the busy second, slot 30 (1 s) shows the settled screen; again from 2 s.
        #expect(times.count == 62)
        #expect(times[29 ... 31] == [966_666_666, 1_000_000_000, 2_000_000_000])
        #expect(times.last == 3_000_000_000)
    }

    @Test func screensThatStartIdleStillSendTheFirstFrame() throws {
        let times = Self.frames(try ScreenActivity(parsing: "idle:1s,busy:1s"), until: 2_100_000_000)
        #expect(times.prefix(3) == [0, 1_000_000_000, 1_033_333_333])
        #expect(times.count == 1 + 30 + 1)
        #expect(times.last == 2_000_000_000)
    }

    @Test func aChangeShorterThanASlotGetsOneFrame() throws {
        let times = Self.frames(try ScreenActivity(parsing: "idle:10ms,busy:5ms,idle:985ms"), until: 2 * Self.second)
        #expect(times == [0, 33_333_333, 1_033_333_333])
    }
}
