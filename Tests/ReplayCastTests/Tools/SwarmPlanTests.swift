// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastKit
import ReplayCastTools
import ReplayKitModel
import Testing

struct SwarmPlanTests {
    @Test func theSameSeedDrawsTheSameSwarmAndAnotherSeedAnother() {
        let first = SwarmPlan(count: 50, seed: 7, duration: .seconds(30), arrival: .together)
        #expect(first == SwarmPlan(count: 50, seed: 7, duration: .seconds(30), arrival: .together))
        let other = SwarmPlan(count: 50, seed: 8, duration: .seconds(30), arrival: .together)
        let differing = zip(first.members, other.members).filter { $0.device != $1.device || $0.schedule != $1.schedule }
        #expect(differing.count >= 40, "\(differing.count) of 50 differ")
    }

    @Test func aBroadcasterIsTheSameWhateverTheCount() {
        let small = SwarmPlan(count: 10, seed: 3, duration: .seconds(30), arrival: .together)
        let large = SwarmPlan(count: 100, seed: 3, duration: .seconds(30), arrival: .together)
        #expect(Array(large.members.prefix(10)) == small.members)
        #expect(large.members.map(\.number) == Array(1...100))
    }

    @Test func everyScheduleIsOneReplayKitSourceAcceptsWithinItsTime() throws {
        let plan = SwarmPlan(count: 400, seed: 11, duration: .seconds(30), arrival: .ramp(.seconds(10)))
        var kinds: [String: Int] = [:]
        for member in plan.members {
            let own = UInt64((30 - member.start.seconds) * 1e9)
            let schedule = try BroadcastSchedule(parsing: member.schedule)
            for event in schedule.events {
                #expect(event.time <= own, "\(member.number): \(member.schedule)")
            }
            for item in member.schedule.split(separator: ";") {
                let action = item.split(separator: ":")[1].split(separator: "=")[0]
                kinds[String(action), default: 0] += 1
            }
            #expect(DeviceProfile(named: member.device) != nil)
        }
        // Each kind of event turns up about as often as it is drawn (of 400).
        #expect((90...150).contains(kinds["pause"] ?? 0) && kinds["pause"] == kinds["resume"], "\(kinds)")
        #expect((50...110).contains(kinds["call-start"] ?? 0) && kinds["call-start"] == kinds["call-end"], "\(kinds)")
        #expect((80...160).contains(kinds["orientation"] ?? 0), "\(kinds)")
        #expect((50...110).contains(kinds["mic-format"] ?? 0), "\(kinds)")
        #expect((20...60).contains(kinds["finish"] ?? 0), "\(kinds)")
        #expect(Set(plan.members.map(\.device)).count == DeviceProfile.all.count)
    }

    @Test func shardsInterleaveAndTogetherAreTheWholeSwarm() {
        let plan = SwarmPlan(count: 10, seed: 2, duration: .seconds(30), arrival: .ramp(.seconds(10)))
        #expect(plan.shard(2, of: 3).map(\.number) == [2, 5, 8])
        let joined = (1...3).flatMap { plan.shard($0, of: 3) }.sorted { $0.number < $1.number }
        #expect(joined == plan.members)
        #expect(plan.shard(1, of: 1) == plan.members)
    }

    @Test func rampedArrivalsAreEvenAndTogetherIsAtOnce() {
        let ramp = SwarmPlan(count: 4, seed: 1, duration: .seconds(20), arrival: .ramp(.seconds(8)))
        #expect(ramp.members.map(\.start) == [.zero, .seconds(2), .seconds(4), .seconds(6)])
        #expect(SwarmPlan(count: 4, seed: 1, duration: .seconds(20), arrival: .together).members.allSatisfy { $0.start == .zero })
        #expect(SwarmPlan.Arrival("ramp:1.5s") == .ramp(.milliseconds(1500)))
        #expect(SwarmPlan.Arrival("together") == .together)
        #expect(SwarmPlan.Arrival("ramp:soon") == nil && SwarmPlan.Arrival("poisson") == nil)
    }
}
