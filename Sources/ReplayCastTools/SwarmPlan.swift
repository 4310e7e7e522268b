// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import ReplayKitModel

/// The broadcasters of a swarm, drawn from a seed: each one's device, start and schedule.
/// A broadcaster's draws depend on the seed and its number only, so the same seed gives the
/// same broadcaster 7 in a swarm of 10 and in one of 100 (its start aside, when arrivals
/// ramp over the count).
public struct SwarmPlan: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        /// From 1: the `{n}` of the URL template.
        public var number: Int
        /// A replaykitsrc device profile.
        public var device: String
        /// After the swarm's start.
        public var start: Duration
        /// replaykitsrc's schedule syntax, times from the broadcaster's own start.
        public var schedule: String
        /// The link between it and the ingest, when the swarm has uplinks.
        public var uplink: Uplink?
    }

    /// A link a broadcaster may get: its schedule's times run from the broadcaster's start.
    public struct Uplink: Sendable, Equatable {
        public var name: String
        public var schedule: UplinkSchedule

        public init(name: String, schedule: UplinkSchedule) {
            self.name = name
            self.schedule = schedule
        }

        /// `NAME=SCHEDULE`, or a bare schedule, named `uplink<position>` (from 1).
        public init(parsing text: String, position: Int) throws(UplinkSchedule.ParseError) {
            let equals = text.firstIndex(of: "=")
            if let equals, !text[..<equals].contains(":"), !text[..<equals].isEmpty {
                name = String(text[..<equals])
                schedule = try UplinkSchedule(parsing: String(text[text.index(after: equals)...]))
            } else {
                name = "uplink\(position)"
                schedule = try UplinkSchedule(parsing: text)
            }
        }
    }

    public enum Arrival: Sendable, Equatable {
        /// Every broadcaster at the start.
        case together
        /// One after another, evenly over this time.
        case ramp(Duration)

        /// `together` or `ramp:TIME` (`ramp:10s`).
        public init?(_ text: String) {
            if text == "together" {
                self = .together
            } else if text.hasPrefix("ramp:"), case .success(let nanoseconds) = DurationText.nanoseconds(text.dropFirst(5)) {
                self = .ramp(.nanoseconds(Int64(clamping: nanoseconds)))
            } else {
                return nil
            }
        }
    }

    public let members: [Member]
    public let seed: UInt64
    /// How long the swarm runs; each broadcaster's events fall inside its own part of it.
    public let duration: Duration

    /// `uplinks`: each broadcaster gets one of them, drawn with equal odds (from draws of
    /// its own, so a swarm with uplinks has the devices and schedules of one without).
    public init(count: Int, seed: UInt64, duration: Duration, arrival: Arrival, uplinks: [Uplink] = []) {
        self.seed = seed
        self.duration = duration
        let devices = DeviceProfile.all.map(\.name)
        members = (1...max(1, count)).map { number in
            var draws = Draws(seed: seed, number: number)
            let start: Duration
            switch arrival {
            case .together: start = .zero
            case .ramp(let span): start = span * (Double(number - 1) / Double(max(1, count)))
            }
            let device = devices[min(devices.count - 1, Int(draws.next() * Double(devices.count)))]
            let own = Timebase.nanoseconds(duration - start)
            var links = Draws(seed: seed ^ Self.uplinkDraws, number: number)
            let uplink = uplinks.isEmpty ? nil : uplinks[min(uplinks.count - 1, Int(links.next() * Double(uplinks.count)))]
            return Member(number: number, device: device, start: start, schedule: Self.schedule(over: own, draws: &draws),
                          uplink: uplink)
        }
    }

    /// Shard `index` (from 1) of `count`: broadcasters index, index + count, index + 2 count …
    /// Interleaved, so that each shard gets its share of a ramp's early and late starts.
    public func shard(_ index: Int, of count: Int) -> [Member] {
        members.filter { ($0.number - 1) % count == index - 1 }
    }

    /// Events in windows that never overlap, so every draw is a schedule replaykitsrc
    /// accepts: an orientation change in the first 10-30 % of the time, a pause of 1-3 s
    /// starting in 30-45 %, a mic format switch in 55-65 %, a call of 1-4 s starting in
    /// 65-80 %, and for some a finish in 90-100 %.
    static func schedule(over nanoseconds: UInt64, draws: inout Draws) -> String {
        let total = Double(nanoseconds)
        var items: [(UInt64, String)] = []
        func at(_ from: Double, _ to: Double) -> UInt64 { UInt64(total * (from + (to - from) * draws.next()) / 1e6) * 1_000_000 }
        func length(_ shortest: Double, _ longest: Double) -> UInt64 {
            UInt64((shortest + (longest - shortest) * draws.next()) * 1000) * 1_000_000
        }
        let orientations = ["left", "right", "down"]
        if draws.next() < 0.3 {
            items.append((at(0.10, 0.30), "orientation=\(orientations[Int(draws.next() * 3) % 3])"))
        }
        if draws.next() < 0.35 {
            let start = at(0.30, 0.45)
            items += [(start, "pause"), (start + min(length(1, 3), UInt64(total * 0.1)), "resume")]
        }
        if draws.next() < 0.2 { items.append((at(0.55, 0.65), "mic-format=\(draws.next() < 0.5 ? 24000 : 16000)")) }
        if draws.next() < 0.2 {
            let start = at(0.65, 0.80)
            items += [(start, "call-start"), (start + min(length(1, 4), UInt64(total * 0.1)), "call-end")]
        }
        if draws.next() < 0.1 { items.append((at(0.90, 1.0), "finish")) }
        return items.map { "\(DurationText.format($0.0)):\($0.1)" }.joined(separator: "; ")
    }

    /// "uplink" in ASCII: the uplinks' draws are a stream apart from the rest.
    static let uplinkDraws: UInt64 = 0x75_70_6C_69_6E_6B

    /// The broadcaster's own stream of draws in [0, 1).
    struct Draws {
        private var state: UInt64

        init(seed: UInt64, number: Int) { state = Scramble.mix(seed ^ Scramble.mix(UInt64(number))) }

        mutating func next() -> Double {
            state = Scramble.mix(state)
            return Scramble.unit(state)
        }
    }
}
