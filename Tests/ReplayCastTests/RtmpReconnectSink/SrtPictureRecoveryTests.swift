// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import ReplayCast
import Testing

/// What follows packets lost over SRT, one look every 100 ms at 125 ms of latency (a queue
/// over 62.5 ms makes packets late).
struct SrtPictureRecoveryTests {
    typealias Observation = SrtLinkReading.Observation
    static let ms: UInt64 = 1_000_000
    static let look = BitrateAdaptation.srtInterval

    static func link(queued: UInt64, losing: Bool) -> Observation {
        Observation(queued: queued * ms, deliveredBytes: 0, losing: losing, limits: .srt(latencyMilliseconds: 125))
    }

    /// Looks from `start`, one per observation; the actions with the looks' times in ms.
    static func run(_ recovery: inout SrtPictureRecovery, from start: UInt64, _ links: [Observation]) -> [UInt64: SrtPictureRecovery.Action] {
        var actions: [UInt64: SrtPictureRecovery.Action] = [:]
        for (index, link) in links.enumerated() {
            let now = start + UInt64(index) * look
            if let action = recovery.observe(link, now: now) { actions[now / ms] = action }
        }
        return actions
    }

    /// 150 ms of queue at the first loss: held back for at least 3 × 150 + 100 ms, and on while
    /// losses are still reported (the retransmissions they ask for fill the queue), so until
    /// the first look without loss after that; the losses still reported in the round trip
    /// after it start no new hold.
    @Test func lossBehindAQueueHoldsVideoBackUntilLossesStopThenGoesOnFromAKeyframe() {
        var recovery = SrtPictureRecovery()
        let flooded = Self.link(queued: 150, losing: true)
        let actions = Self.run(&recovery, from: 1000 * Self.ms,
                               [Self.link(queued: 5, losing: false), flooded] + Array(repeating: flooded, count: 4)
                               + [Self.link(queued: 200, losing: false), Self.link(queued: 200, losing: true),
                                  Self.link(queued: 200, losing: false), Self.link(queued: 200, losing: true),
                                  Self.link(queued: 20, losing: false)])
        #expect(actions == [1100: .hold(550 * Self.ms), 1800: .resume(after: 700 * Self.ms)], "\(actions)")
        #expect(recovery.holding == nil)
    }

    /// Losses reported at every look: the hold ends after a second all the same.
    @Test func aHoldEndsAfterASecondWhileLossesGoOn() {
        var recovery = SrtPictureRecovery()
        let flooded = Self.link(queued: 100, losing: true)
        let actions = Self.run(&recovery, from: 0, Array(repeating: flooded, count: 12))
        #expect(actions == [0: .hold(400 * Self.ms), 1000: .resume(after: 1000 * Self.ms)], "\(actions)")
    }

    @Test func newLossAfterTheRoundTripHoldsAgainForAtMostASecond() {
        var recovery = SrtPictureRecovery()
        let flooded = Self.link(queued: 100, losing: true)
        var actions = Self.run(&recovery, from: 0, Array(repeating: flooded, count: 4) + [Self.link(queued: 100, losing: false)])
        #expect(actions == [0: .hold(400 * Self.ms), 400: .resume(after: 400 * Self.ms)], "\(actions)")
        // Ignored until 400 + 100 + 100 ms; then a queue of 400 ms: 1.3 s capped at 1 s.
        actions = Self.run(&recovery, from: 500 * Self.ms, [Self.link(queued: 400, losing: true), Self.link(queued: 400, losing: true)])
        #expect(actions == [600: .hold(1000 * Self.ms)], "\(actions)")
    }

    /// Loss without a queue (the link drops at random): nothing is held back; once nothing
    /// more is lost, a keyframe, once.
    @Test func lossWithoutAQueueAsksForAKeyframeOnceItStops() {
        var recovery = SrtPictureRecovery()
        let actions = Self.run(&recovery, from: 0, [Self.link(queued: 10, losing: true), Self.link(queued: 10, losing: true),
                                                    Self.link(queued: 80, losing: false), Self.link(queued: 30, losing: false),
                                                    Self.link(queued: 10, losing: false)])
        #expect(actions == [300: .keyframe], "\(actions)")
    }

    @Test func aNewConnectionForgetsAHold() {
        var recovery = SrtPictureRecovery()
        _ = recovery.observe(Self.link(queued: 100, losing: true), now: 0)
        let held = recovery.holding != nil
        recovery.restart()
        #expect(held && recovery.holding == nil)
        #expect(recovery.observe(Self.link(queued: 100, losing: true), now: Self.look) == .hold(400 * Self.ms))
    }
}
