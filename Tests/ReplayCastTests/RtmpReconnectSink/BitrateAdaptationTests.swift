// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import ReplayCast
import Testing

/// adaptive-bitrate's decisions on made-up connections, one observation per interval.
struct BitrateAdaptationTests {
    static let step = BitrateAdaptation.interval
    static let ms: UInt64 = 1_000_000

    /// A connection whose link delivers `rate` kbit/s, observed from `start` for `seconds`,
    /// with `queued` and `unsent` at every observation; returns the decisions with their times.
    struct Link {
        var adaptation: BitrateAdaptation
        var now: UInt64 = 0
        var sent: UInt64 = 0

        mutating func run(seconds: Double, rate: Int, queued: UInt64 = 0, unsent: UInt64 = 0)
            -> [(time: Double, decision: BitrateAdaptation.Decision)] {
            var decisions: [(Double, BitrateAdaptation.Decision)] = []
            let end = now + UInt64(seconds * 1e9)
            while now < end {
                now += BitrateAdaptationTests.step
                sent += UInt64(rate) * 1000 / 8 * BitrateAdaptationTests.step / 1_000_000_000
                if let decision = adaptation.observe(now: now, queued: queued, sentBytes: sent + unsent, unsentBytes: unsent) {
                    decisions.append((Double(now) / 1e9, decision))
                }
            }
            return decisions
        }
    }

    @Test func aLinkThatKeepsUpChangesNothing() {
        var link = Link(adaptation: BitrateAdaptation(configured: 2500, minimum: 300))
        #expect(link.run(seconds: 60, rate: 2600, queued: 33 * Self.ms).isEmpty)
        #expect(link.adaptation.current == 2500)
    }

    @Test func congestionHalvesWhatGetsThroughAtOnce() {
        var link = Link(adaptation: BitrateAdaptation(configured: 2500, minimum: 300))
        _ = link.run(seconds: 5, rate: 2600)
        let decisions = link.run(seconds: 0.5, rate: 800, queued: 600 * Self.ms)
        // The first congested observation measures a second that is half fast, half slow.
        #expect(decisions.count == 1, "\(decisions)")
        let first = decisions[0].decision
        #expect(first.reason == .congested && first.old == 2500 && first.queued == 600 * Self.ms)
        #expect(first.new == first.sendRate / 2 && first.new < 2500, "\(first)")
        // Still behind after the hold: down again, to half of the slow link.
        let again = link.run(seconds: 2, rate: 800, queued: 900 * Self.ms)
        #expect(again.count == 1 && again[0].decision.new == 400 && again[0].decision.sendRate == 800, "\(again)")
    }

    @Test func bytesTheServerHasNotAcknowledgedCountAsWaiting() {
        var link = Link(adaptation: BitrateAdaptation(configured: 2500, minimum: 300))
        _ = link.run(seconds: 2, rate: 800)
        // 100 kB unacknowledged at 800 kbit/s is a second of media, though rtmp2sink's queue is empty.
        let decisions = link.run(seconds: 0.25, rate: 800, unsent: 100_000)
        #expect(decisions.map(\.decision) == [.init(old: 2500, new: 400, reason: .congested, queued: 1_000 * Self.ms, sendRate: 800)])
    }

    @Test func recoveryStepsUpUnderTheCeilingThenProbesUpToTheConfiguredRate() {
        var link = Link(adaptation: BitrateAdaptation(configured: 2500, minimum: 300))
        _ = link.run(seconds: 2, rate: 800)
        let down = link.run(seconds: 0.25, rate: 800, queued: 700 * Self.ms)
        #expect(down.map(\.decision.new) == [400])
        let congestedAt = down[0].time
        // The link keeps up again: +40 % every 2 s, held at 0.8 × 800 kbit/s for 10 s after the
        // congestion, then on to the configured rate and never past it.
        let up = link.run(seconds: 30, rate: 3000)
        #expect(up.map(\.decision.new) == [560, 640, 896, 1254, 1755, 2457, 2500], "\(up.map(\.decision.new))")
        #expect(up.allSatisfy { $0.decision.reason == .recovered })
        #expect(up[0].time - congestedAt >= 2 && up[1].time - congestedAt < 10 && up[2].time - congestedAt >= 10,
                "\(up.map(\.time))")
        #expect(zip(up, up.dropFirst()).allSatisfy { $1.time - $0.time >= 2 })
        #expect(link.adaptation.current == 2500)
    }

    @Test func neverBelowTheMinimumAndANewConnectionStartsItsCountAgain() {
        var link = Link(adaptation: BitrateAdaptation(configured: 2500, minimum: 300))
        _ = link.run(seconds: 2, rate: 200)
        #expect(link.run(seconds: 0.25, rate: 200, queued: 2000 * Self.ms).map(\.decision.new) == [300])
        #expect(link.run(seconds: 10, rate: 200, queued: 2000 * Self.ms).isEmpty, "already at the minimum")
        link.adaptation.restart()
        link.sent = 0
        // The sender's count starting from 0 is no negative rate.
        #expect(link.run(seconds: 1, rate: 800).isEmpty)
        #expect(BitrateAdaptation(configured: 200, minimum: 300).minimum == 200)
    }
}
