// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastSupport
import ReplayKitModel

/// The broadcast as a function of time, shared by the three stream threads and the
/// application thread (action signals). Streams run at different positions (in non-live
/// mode video can be seconds ahead of audio), so each asks for the state at its own time:
/// the state is the profile's start state with every event up to that time applied.
final class BroadcastTimeline: Sendable {
    struct Data {
        /// Sorted by time; events at the same time keep their order.
        var events: [BroadcastSchedule.Event]
        /// Latest time each stream has produced up to.
        var positions = [UInt64](repeating: 0, count: 3)
        /// Indices (in order of arrival) of the events already announced on the bus; events
        /// arrive out of time order when an action signal lands behind a stream's position.
        var announced = Set<Int>()
        /// Arrival index of each event in `events`.
        var serials: [Int]
        var started = false
        /// Running time of broadcast time 0 (live mode); fixed by the first stream to start.
        var epoch: UInt64?
    }

    let profile: DeviceProfile
    let audioAfterCall: Bool
    let live: Bool
    private let data: Locked<Data>

    init(configuration c: BroadcastConfiguration, videoFinish: UInt64?) {
        profile = c.profile
        audioAfterCall = c.audioAfterCall
        live = c.live
        var events = [BroadcastSchedule.Event(time: 0, action: .micFormat(rate: c.mic.rate, channels: c.mic.channels)),
                      BroadcastSchedule.Event(time: 0, action: .mic(c.initialMic))]
        events += c.schedule.events
        if let duration = c.duration { events.append(.init(time: duration, action: .finish)) }
        if let videoFinish { events.append(.init(time: videoFinish, action: .finish)) }
        let order = Self.order(events)
        var initial = Data(events: order.map { events[$0] }, serials: order)
        // The profile overrides at time 0 are the starting state, not events to announce.
        initial.announced = [0, 1]
        data = Locked(initial)
    }

    /// Indices of `events` sorted by time; events at the same time keep their order.
    private static func order(_ events: [BroadcastSchedule.Event]) -> [Int] {
        events.indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
    }

    /// The state for a buffer starting at `time`.
    func state(at time: UInt64) -> BroadcastState {
        data.withLock { Self.state(at: time, events: $0.events, profile: profile, audioAfterCall: audioAfterCall) }
    }

    static func state(at time: UInt64, events: [BroadcastSchedule.Event], profile: DeviceProfile,
                      audioAfterCall: Bool) -> BroadcastState {
        var state = BroadcastState(profile: profile, audioReturnsAfterCall: audioAfterCall)
        for event in events where event.time <= time { state.apply(event.action) }
        return state
    }

    /// Whether video stopped (a pause or the finish took effect) somewhere in [start, end].
    func stopsVideo(from start: UInt64, through end: UInt64) -> Bool {
        data.withLock { d in
            d.events.contains { event in
                (start...max(start, end)).contains(event.time)
                    && !Self.state(at: event.time, events: d.events, profile: profile, audioAfterCall: audioAfterCall).deliversVideo
            }
        }
    }

    /// When the broadcast finishes, if it is known yet.
    var finishTime: UInt64? {
        data.withLock { d in d.events.first { $0.action == .finish }?.time }
    }

    /// An action signal: takes effect now, i.e. at the current clock time in live mode,
    /// or where the furthest stream has got to otherwise.
    func act(_ action: BroadcastAction, now: UInt64?) {
        data.withLock { d in
            let time: UInt64
            if let now, let epoch = d.epoch {
                time = now > epoch ? now - epoch : 0
            } else {
                time = d.positions.max() ?? 0
            }
            var byArrival = [BroadcastSchedule.Event](repeating: .init(time: 0, action: .pause), count: d.events.count)
            for (position, serial) in d.serials.enumerated() { byArrival[serial] = d.events[position] }
            byArrival.append(.init(time: time, action: action))
            d.serials = Self.order(byArrival)
            d.events = d.serials.map { byArrival[$0] }
        }
    }

    /// Fixes broadcast time 0 at `runningTime` unless a stream already did; returns it.
    func epoch(startingAt runningTime: UInt64) -> UInt64 {
        data.withLock { d in
            if let epoch = d.epoch { return epoch }
            d.epoch = runningTime
            return runningTime
        }
    }

    /// Records that `stream` reached `time`, and returns what is due for announcement:
    /// whether the broadcast just started, and the lifecycle events passed for the first time.
    func advance(stream: Int, to time: UInt64) -> (started: Bool, events: [BroadcastSchedule.Event]) {
        data.withLock { d in
            d.positions[stream] = max(d.positions[stream], time)
            let started = !d.started
            d.started = true
            var due: [BroadcastSchedule.Event] = []
            for (position, event) in d.events.enumerated() where event.time <= time {
                if d.announced.insert(d.serials[position]).inserted { due.append(event) }
            }
            return (started, due)
        }
    }
}
