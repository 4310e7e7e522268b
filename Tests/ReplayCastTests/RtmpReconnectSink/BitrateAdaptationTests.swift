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

/// adaptive-bitrate over SRT: srtsink's running totals turned into what BitrateAdaptation
/// weighs, and loss that steps the bitrate down though no media waits.
struct SrtLinkReadingTests {
    typealias Totals = SrtLinkReading.Totals
    static let limits = BitrateAdaptation.QueueLimits.srt(latencyMilliseconds: 125)

    @Test func theRoundTripsGrowthIsTheQueueAndLostPacketsDidNotGetThrough() {
        var reading = SrtLinkReading()
        func totals(_ sent: UInt64, lost: UInt64, bytes: UInt64, roundTrip: Double) -> Totals {
            Totals(packetsSent: sent, packetsLost: lost, bytesSent: bytes, roundTripMilliseconds: roundTrip, latencyMilliseconds: 125)
        }
        #expect(reading.observe(totals(1000, lost: 0, bytes: 1_360_000, roundTrip: 0.25))
                == .init(queued: 0, deliveredBytes: 1_360_000, losing: false, limits: Self.limits))
        // 180 ms of queue at the bottleneck; 1 lost in 500 is under 2 %.
        #expect(reading.observe(totals(1500, lost: 1, bytes: 2_040_000, roundTrip: 180.25))
                == .init(queued: 180_000_000, deliveredBytes: 2_040_000 - 1360, losing: false, limits: Self.limits))
        // 30 of 300 lost: the link drops what it cannot carry.
        #expect(reading.observe(totals(1800, lost: 31, bytes: 2_448_000, roundTrip: 250.25))
                == .init(queued: 250_000_000, deliveredBytes: 2_448_000 - 31 * 1360, losing: true, limits: Self.limits))
        // A new connection counts from 0 and learns its least round trip again.
        reading.restart()
        #expect(reading.observe(totals(10, lost: 0, bytes: 13_600, roundTrip: 40))
                == .init(queued: 0, deliveredBytes: 13_600, losing: false, limits: Self.limits))
    }

    /// One or two packets lost in a look (a keyframe's burst) are chance, though a share of
    /// a tenth of a second's packets above 2 %; three are the link's doing.
    @Test func aPacketOrTwoLostIsChance() {
        var reading = SrtLinkReading()
        func totals(_ sent: UInt64, lost: UInt64) -> Totals {
            Totals(packetsSent: sent, packetsLost: lost, bytesSent: sent * 1360, roundTripMilliseconds: 1, latencyMilliseconds: 125)
        }
        _ = reading.observe(totals(1000, lost: 0))
        #expect(!reading.observe(totals(1038, lost: 1)).losing, "1 of 38: 2.6 %")
        #expect(!reading.observe(totals(1076, lost: 3)).losing, "2 of 38: 5.3 %")
        #expect(reading.observe(totals(1114, lost: 6)).losing, "3 of 38")
        #expect(!reading.observe(totals(1414, lost: 9)).losing, "3 of 300: 1 %")
    }

    @Test func theLatencySetsWhatAQueueMeans() {
        #expect(Self.limits == .init(congested: 62_500_000, steady: 15_625_000, holdDown: 500_000_000))
        #expect(BitrateAdaptation.QueueLimits.srt(latencyMilliseconds: 0).congested == 10_000_000, "20 ms at the least")
    }

    /// Losing behind a queue that makes packets late (more than half the latency): straight
    /// to the minimum, even 250 ms after a step down, as anything above the slower link
    /// floods the queue again once it drains.
    @Test func lossBehindAQueueGoesStraightToTheMinimum() {
        var adaptation = BitrateAdaptation(configured: 3000, minimum: 300)
        var now: UInt64 = 0, sent: UInt64 = 0
        func observe(queued: UInt64, losing: Bool) -> BitrateAdaptation.Decision? {
            now += BitrateAdaptation.interval
            sent += 3000 * 1000 / 8 / 4
            return adaptation.observe(now: now, queued: queued, sentBytes: sent, unsentBytes: 0, losing: losing, limits: Self.limits)
        }
        for _ in 1...8 { #expect(observe(queued: 0, losing: false) == nil) }
        let queueOnly = observe(queued: 70_000_000, losing: false)
        let flooded = observe(queued: 150_000_000, losing: true)
        #expect(queueOnly.map { [$0.old, $0.new] } == [3000, 1500], "half of what got through: \(String(describing: queueOnly))")
        #expect(flooded.map { [$0.old, $0.new] } == [1500, 300], "\(String(describing: flooded))")
        #expect(observe(queued: 40_000_000, losing: true) == nil, "already at the minimum")
    }

    /// 4 s at 3 Mb/s, then a link of 800 kbit/s that loses the rest: down to a quarter of
    /// what got through over the last second (less than the encoder's rate: 2450 kbit/s,
    /// three fast quarter seconds and a slow one), then, 500 ms on, to the minimum.
    @Test func lossStepsDownThoughNothingWaits() {
        var adaptation = BitrateAdaptation(configured: 3000, minimum: 300)
        var now: UInt64 = 0, sent: UInt64 = 0
        var decisions: [BitrateAdaptation.Decision] = []
        for tick in 1...24 {
            now += BitrateAdaptation.interval
            sent += UInt64(tick <= 16 ? 3000 : 800) * 1000 / 8 / 4
            if let decision = adaptation.observe(now: now, queued: 0, sentBytes: sent, unsentBytes: 0, losing: tick > 16,
                                                 limits: Self.limits) {
                decisions.append(decision)
            }
        }
        #expect(decisions.map { [$0.old, $0.new, $0.sendRate] } == [[3000, 612, 2450], [612, 300, 1350]], "\(decisions)")
        #expect(decisions.allSatisfy { $0.reason == .congested })
    }
}
