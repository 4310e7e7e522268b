// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastKit
import ReplayCastTools
import Testing

struct UplinkScheduleTests {
    @Test func parsesRatesOutagesAndTimes() throws {
        let schedule = try UplinkSchedule(parsing: " 0s:rate=4mbit; 20s : rate=600kbit;40s:down; 45.5s:up; 1m:rate=1.5mbit; ")
        #expect(schedule.steps.map(\.time) == [.zero, .seconds(20), .seconds(40), .milliseconds(45_500), .seconds(60)])
        #expect(schedule.steps.map(\.change) == [.rate(bitsPerSecond: 4_000_000), .rate(bitsPerSecond: 600_000), .down, .up,
                                                 .rate(bitsPerSecond: 1_500_000)])
        #expect(schedule.steps.map(\.change.description) == ["rate 4 Mb/s", "rate 600 kb/s", "down", "up", "rate 1.5 Mb/s"])
    }

    @Test func delaysAndStallsAreTheRelays() throws {
        let schedule = try UplinkSchedule(parsing: "0s:delay=150ms; 2s:rate=1mbit; 3s:stall; 5.5s:resume; 6s:delay=0ms")
        #expect(schedule.steps.map(\.change) == [.delay(nanoseconds: 150_000_000), .rate(bitsPerSecond: 1_000_000), .stall, .resume,
                                                 .delay(nanoseconds: 0)])
        #expect(schedule.steps.map(\.change.isRelays) == [true, false, true, true, true])
        #expect(schedule.steps.map(\.change.description)
                == ["delay 150ms", "rate 1 Mb/s", "stall: the server reads nothing", "resume: the server reads again", "delay 0ms"])
        #expect(schedule.needsRelay)
        #expect(try !UplinkSchedule(parsing: "0s:rate=4mbit; 1s:down; 2s:up").needsRelay)
    }

    @Test func unitsAreSIAndTcSpelled() throws {
        let rates = try ["8bit", "1kbit", "2.25mbit", "1gbit", "750kbit"].map { text -> UInt64? in
            guard case .rate(let bits) = try UplinkSchedule(parsing: "0s:rate=\(text)").steps[0].change else { return nil }
            return bits
        }
        #expect(rates == [8, 1000, 2_250_000, 1_000_000_000, 750_000])
        #expect(UplinkSchedule.format(bitsPerSecond: 2_250_000) == "2.25 Mb/s")
        #expect(UplinkSchedule.format(bitsPerSecond: 999) == "999 b/s")
    }

    @Test func refusesWhatItCannotDoAsWritten() {
        let cases: [(String, Int, String)] = [
            ("0s:rate=4mbit; 5s:up", 2, "the link is not down"),
            ("1s:down; 2s:down", 2, "the link is already down"),
            ("5s:down; 2s:up", 2, "times must not go backwards"),
            ("0s:rate=4mbps", 1, "bad rate \"4mbps\""),
            ("0s:rate=7bit", 1, "at least 8bit"),
            ("0s:rate=1.0001kbit", 1, "bad rate"),
            ("0s:jitter=100ms", 1, "unknown action \"jitter=100ms\""),
            ("0s:delay=fast", 1, "bad time \"fast\""),
            ("0s:delay=11s", 1, "delay \"11s\" is longer than 10s"),
            ("1s:stall; 2s:stall", 2, "the server is already stalled"),
            ("0s:delay=0ms; 1s:resume", 2, "the server is not stalled"),
            ("soon:down", 1, "bad time \"soon\""),
            ("down", 1, "expected <time>:<action>"),
        ]
        for (text, item, reason) in cases {
            #expect(throws: UplinkSchedule.ParseError.self, "\(text)") { try UplinkSchedule(parsing: text) }
            do {
                _ = try UplinkSchedule(parsing: text)
            } catch {
                #expect(error.item == item && error.reason.contains(reason), "\(text): \(error)")
            }
        }
    }
}
