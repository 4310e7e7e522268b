// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel
import Testing

@Suite struct BroadcastScheduleTests {
    typealias Event = BroadcastSchedule.Event

    @Test func parsesTheExampleFromTheBrief() throws {
        let schedule = try BroadcastSchedule(parsing:
            "5s:pause; 8s:resume; 10s:orientation=right; 12s:mic-format=24000; 15s:call-start; 18s:call-end; 20s:finish")
        #expect(schedule.events == [
            Event(time: 5_000_000_000, action: .pause),
            Event(time: 8_000_000_000, action: .resume),
            Event(time: 10_000_000_000, action: .orientation(.right)),
            Event(time: 12_000_000_000, action: .micFormat(rate: 24000, channels: nil)),
            Event(time: 15_000_000_000, action: .callStart),
            Event(time: 18_000_000_000, action: .callEnd),
            Event(time: 20_000_000_000, action: .finish),
        ])
    }

    @Test func timeUnitsAndFractionsAreExact() throws {
        let schedule = try BroadcastSchedule(parsing:
            "0s:mic=off; 500ms:mic=silence; 1.000000001s:mic=on; 1.5s:orientation=left; 0.1m:orientation=down; "
            + "2m:mic-format=48000/3; 0.25h:orientation=up")
        #expect(schedule.events.map(\.time) == [
            0, 500_000_000, 1_000_000_001, 1_500_000_000, 6_000_000_000, 120_000_000_000, 900_000_000_000,
        ])
        #expect(schedule.events.map(\.action) == [
            .mic(.off), .mic(.silence), .mic(.on), .orientation(.left), .orientation(.down),
            .micFormat(rate: 48000, channels: 3), .orientation(.up),
        ])
    }

    @Test func spacesAndEmptyItemsAreTolerated() throws {
        let schedule = try BroadcastSchedule(parsing: "  5s : pause ;; 6s:resume ;\t")
        #expect(schedule.events == [Event(time: 5_000_000_000, action: .pause), Event(time: 6_000_000_000, action: .resume)])
        #expect(try BroadcastSchedule(parsing: "").events.isEmpty)
        #expect(try BroadcastSchedule(parsing: " ; ").events.isEmpty)
    }

    @Test func itemsAtTheSameTimeKeepTheirOrder() throws {
        let schedule = try BroadcastSchedule(parsing: "1s:pause; 1s:orientation=left; 1s:resume")
        #expect(schedule.events.map(\.action) == [.pause, .orientation(.left), .resume])
    }

    @Test(arguments: [
        ("5s:pause; 8s:resume; 10s:orientaton=right",
         #"schedule item 3 "10s:orientaton=right": unknown action "orientaton""#),
        ("5s pause", #"schedule item 1 "5s pause": expected <time>:<action>, e.g. 5s:pause"#),
        ("5x:pause", #"schedule item 1 "5x:pause": bad time "5x": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
        ("5:pause", #"schedule item 1 "5:pause": bad time "5": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
        ("-1s:pause", #"schedule item 1 "-1s:pause": bad time "-1s": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
        (".5s:pause", #"schedule item 1 ".5s:pause": bad time ".5s": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
        ("1.s:pause", #"schedule item 1 "1.s:pause": bad time "1.s": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
        ("1.0000000001s:pause", #"schedule item 1 "1.0000000001s:pause": bad time "1.0000000001s": expected a number and a unit (ms, s, m or h), e.g. 500ms, 1.5s, 2m"#),
        ("0.0000001ms:pause", #"schedule item 1 "0.0000001ms:pause": time "0.0000001ms" is finer than a nanosecond"#),
        ("99999999999h:pause", #"schedule item 1 "99999999999h:pause": time "99999999999h" is too long"#),
        ("10s:pause; 8s:resume", #"schedule item 2 "8s:resume": time "8s" is earlier than the previous item's "10s""#),
        ("1s:pause;;3s:bogus", #"schedule item 3 "3s:bogus": unknown action "bogus""#),
        ("1s:pause=now", #"schedule item 1 "1s:pause=now": action "pause" takes no value"#),
        ("1s:orientation", #"schedule item 1 "1s:orientation": action "orientation" needs a value: up, down, left or right"#),
        ("1s:orientation=sideways", #"schedule item 1 "1s:orientation=sideways": unknown orientation "sideways" (expected up, down, left or right)"#),
        ("1s:mic=mute", #"schedule item 1 "1s:mic=mute": unknown mic mode "mute" (expected on, off or silence)"#),
        ("1s:mic-format=", #"schedule item 1 "1s:mic-format=": action "mic-format" needs a value: <rate>[/<channels>], e.g. 24000 or 48000/3"#),
        ("1s:mic-format=48k", #"schedule item 1 "1s:mic-format=48k": bad mic-format "48k" (expected <rate>[/<channels>], e.g. 24000 or 48000/3)"#),
        ("1s:mic-format=100", #"schedule item 1 "1s:mic-format=100": mic-format rate 100 is outside 8000-96000 Hz"#),
        ("1s:mic-format=48000/4", #"schedule item 1 "1s:mic-format=48000/4": mic-format channels 4 is outside 1-3"#),
        ("1s:mic-format=48000/", #"schedule item 1 "1s:mic-format=48000/": bad mic-format "48000/" (expected <rate>[/<channels>], e.g. 24000 or 48000/3)"#),
        ("1s:resume", #"schedule item 1 "1s:resume": resume while not paused"#),
        ("1s:pause; 2s:pause", #"schedule item 2 "2s:pause": pause while already paused"#),
        ("1s:call-end", #"schedule item 1 "1s:call-end": call-end without call-start"#),
        ("1s:call-start; 2s:call-start", #"schedule item 2 "2s:call-start": call-start during a call"#),
        ("1s:finish; 2s:orientation=up", #"schedule item 2 "2s:orientation=up": nothing may follow finish"#),
    ])
    func malformedInputNamesTheItemAndTheProblem(input: String, message: String) {
        #expect(throws: (any Error).self) { try BroadcastSchedule(parsing: input) }
        do {
            _ = try BroadcastSchedule(parsing: input)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func errorsCarryTheirParts() {
        do {
            _ = try BroadcastSchedule(parsing: "5s:pause; 8s:resume; 10s:orientaton=right")
        } catch {
            #expect(error.item == 3)
            #expect(error.text == "10s:orientaton=right")
            #expect(error.reason == #"unknown action "orientaton""#)
        }
    }

    @Test func printsItsOwnSyntax() throws {
        let schedule = try BroadcastSchedule(parsing: "0s:orientation=left; 1s:pause; 1.000000001s:resume; "
            + "2s:mic-format=24000; 3s:mic-format=48000/3; 4s:mic=silence; 5s:call-start; 6s:call-end; 7.25s:finish")
        #expect(schedule.description == "0ms:orientation=left; 1000ms:pause; 1.000000001s:resume; "
            + "2000ms:mic-format=24000; 3000ms:mic-format=48000/3; 4000ms:mic=silence; 5000ms:call-start; "
            + "6000ms:call-end; 7250ms:finish")
        #expect(try BroadcastSchedule(parsing: schedule.description) == schedule)
    }

    @Test func findsEventsInATimeRange() throws {
        let schedule = try BroadcastSchedule(parsing: "1s:pause; 2s:resume; 2s:orientation=down; 3s:finish")
        #expect(schedule.events(in: 0 ..< 1_000_000_000).isEmpty)
        #expect(schedule.events(in: 1_000_000_000 ..< 2_000_000_000).map(\.action) == [.pause])
        #expect(schedule.events(in: 1_500_000_000 ..< 3_000_000_001).map(\.action) == [.resume, .orientation(.down), .finish])
        #expect(schedule.firstIndex(atOrAfter: 2_000_000_000) == 1)
        #expect(schedule.firstIndex(atOrAfter: 3_000_000_001) == 4)
    }

    @Test func eventsGivenDirectlyAreSortedStably() {
        let schedule = BroadcastSchedule(events: [
            Event(time: 2, action: .finish), Event(time: 1, action: .pause), Event(time: 1, action: .resume),
        ])
        #expect(schedule.events.map(\.action) == [.pause, .resume, .finish])
    }
}

@Suite struct VideoOrientationTests {
    @Test func mapsReplayKitValuesToGStreamerTags() {
        let table = VideoOrientation.allCases.map { ($0.rawValue, $0.cgImagePropertyOrientation, $0.orientation.rawValue) }
        #expect(table.map(\.0) == ["up", "down", "left", "right"])
        #expect(table.map(\.1) == [1, 3, 8, 6])
        #expect(table.map(\.2) == ["rotate-0", "rotate-180", "rotate-270", "rotate-90"])
    }
}

@Suite struct BroadcastStateTests {
    @Test func followsTheLifecycle() {
        var state = BroadcastState(profile: .iPhoneXiOS12)
        #expect(state.deliversVideo && state.deliversAppAudio && state.mic == .speech)
        #expect(state.micRate == 44100 && state.micChannels == 1 && state.orientation == .up)
        state.apply(.pause)
        #expect(!state.deliversVideo && !state.deliversAppAudio && state.mic == .none)
        state.apply(.resume)
        #expect(state.deliversVideo && state.mic == .speech)
        state.apply(.orientation(.left))
        state.apply(.micFormat(rate: 24000, channels: nil))
        #expect(state.orientation == .left && state.micRate == 24000 && state.micChannels == 1)
        state.apply(.micFormat(rate: 48000, channels: 3))
        #expect(state.micRate == 48000 && state.micChannels == 3)
        state.apply(.mic(.silence))
        #expect(state.mic == .silence)
        state.apply(.mic(.off))
        #expect(state.mic == .none && state.deliversAppAudio)
        state.apply(.finish)
        #expect(!state.deliversVideo && !state.deliversAppAudio && state.finished)
    }

    @Test func afterACallOnlyVideoArrives() {
        var state = BroadcastState(profile: .iPhone11iOS17)
        state.apply(.callStart)
        #expect(state.inCall && state.deliversVideo && !state.deliversAppAudio && state.mic == .none)
        state.apply(.callEnd)
        #expect(!state.inCall && state.deliversVideo && !state.deliversAppAudio && state.mic == .none)
    }

    @Test func audioCanBeModelledToReturnAfterACall() {
        var state = BroadcastState(profile: .iPhone11iOS17, audioReturnsAfterCall: true)
        state.apply(.callStart)
        #expect(!state.deliversAppAudio)
        state.apply(.callEnd)
        #expect(state.deliversAppAudio && state.mic == .speech)
    }
}
