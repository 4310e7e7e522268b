// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

/// pipcompositor's choice of how to make a frame, over every situation it can meet: the
/// cases named in FramePlan's rules, then what must hold in all 48.
@Suite struct FramePlanTests {
    typealias Situation = FramePlan.Situation

    static let all: [Situation] = [false, true].flatMap { shows in
        [false, true].flatMap { fills in
            [false, true].flatMap { taken in
                [FramePlan.Held.none, .onlyOurs, .shared].flatMap { held in
                    [false, true].map { Situation(showsMain: shows, fillsOutput: fills, alreadyTaken: taken, held: held, lendable: $0) }
                }
            }
        }
    }

    @Test func theNamedCases() {
        let fresh = Situation(showsMain: true, fillsOutput: true, alreadyTaken: false, held: .none, lendable: true)
        #expect(FramePlan.choose(fresh) == (.taken, true))
        var shared = fresh
        shared.lendable = false
        #expect(FramePlan.choose(shared) == (.copyMain, true), "a tee'd main buffer is copied once")
        let repeated = Situation(showsMain: true, fillsOutput: true, alreadyTaken: true, held: .onlyOurs, lendable: false)
        #expect(FramePlan.choose(repeated) == (.reuseHeld, true))
        var stillDownstream = repeated
        stillDownstream.held = .shared
        #expect(FramePlan.choose(stillDownstream) == (.copyHeld, true))
        var heldGone = repeated
        heldGone.held = .none
        #expect(FramePlan.choose(heldGone) == (.compose, false), "the taken pixels are gone: background there")
        var moved = repeated
        moved.fillsOutput = false
        #expect(FramePlan.choose(moved) == (.compose, true), "placed elsewhere: composed from the held output")
        var letterboxed = fresh
        letterboxed.fillsOutput = false
        #expect(FramePlan.choose(letterboxed) == (.compose, true))
        var none = fresh
        none.showsMain = false
        #expect(FramePlan.choose(none) == (.compose, false))
    }

    @Test func rulesThatHoldInEverySituation() {
        var plans: [FramePlan: Int] = [:]
        for situation in Self.all {
            let (plan, shows) = FramePlan.choose(situation)
            plans[plan, default: 0] += 1
            let text = "\(situation) → \(plan), main \(shows)"
            #expect(!shows || situation.showsMain, "a main picture appears only where there is one: \(text)")
            #expect(plan == .compose || (situation.showsMain && situation.fillsOutput), "only a filling main picture skips composing: \(text)")
            #expect(plan != .taken || (situation.lendable && !situation.alreadyTaken), "only lendable, fresh memory is taken: \(text)")
            #expect(plan != .reuseHeld || situation.held == .onlyOurs, "the held output is drawn into only when downstream let go: \(text)")
            #expect(plan != .copyHeld || situation.held == .shared, "a held output downstream still has is copied: \(text)")
            #expect([.reuseHeld, .copyHeld].contains(plan) == (situation.alreadyTaken && situation.fillsOutput && situation.showsMain
                                                                && situation.held != .none), "a repeat comes from the held output: \(text)")
            #expect(plan.holdsMainMemory == [.taken, .reuseHeld, .copyHeld].contains(plan), "\(text)")
        }
        #expect(Self.all.count == 48)
        #expect(plans.count == 5, "every plan chosen somewhere: \(plans)")
        print("48 situations: \(plans.sorted { $0.key.description < $1.key.description }.map { "\($0.key): \($0.value)" })")
    }
}
