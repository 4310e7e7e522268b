// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel

/// What the shaped uplink does when: parsed from text such as
/// `"0s:rate=4mbit; 20s:rate=600kbit; 40s:down; 45s:up"`.
///
/// Items are separated by `;` (empty ones skipped), each `<time>:<action>`, times written as
/// replaykitsrc's schedule writes them (`500ms`, `5s`, `1.5s`, `2m`), measured from the
/// start and never going backwards. Actions:
///
///     rate=<number><unit>   the link's capacity; unit bit, kbit, mbit or gbit (SI: k = 1000),
///                           as tc writes rates; from 8 bit/s
///     down                  the link drops everything until `up`
///     up                    back to the last rate (or to no limit, before any)
///     delay=<time>          what the broadcast sends arrives this much later (the relay's;
///                           `delay=0ms` ends it), at most 10 s
///     stall                 the server reads nothing more until `resume` (the relay's)
///     resume
///
/// Before the first `rate` the link has no limit. `down` while down, `up` while up, `stall`
/// while stalled and `resume` while not are refused: they would mean a schedule that says
/// something other than what it does.
public struct UplinkSchedule: Sendable, Equatable {
    public enum Change: Sendable, Equatable, CustomStringConvertible {
        case rate(bitsPerSecond: UInt64)
        case down
        case up
        case delay(nanoseconds: UInt64)
        case stall
        case resume

        /// Whether the relay does it: the kernel's link has no delay, and nothing to stop
        /// reading.
        public var isRelays: Bool {
            switch self {
            case .delay, .stall, .resume: true
            case .rate, .down, .up: false
            }
        }

        public var description: String {
            switch self {
            case .rate(let bits): "rate \(UplinkSchedule.format(bitsPerSecond: bits))"
            case .down: "down"
            case .up: "up"
            case .delay(let nanoseconds): "delay \(DurationText.format(nanoseconds))"
            case .stall: "stall: the server reads nothing"
            case .resume: "resume: the server reads again"
            }
        }
    }

    public struct Step: Sendable, Equatable {
        /// Since the start.
        public var time: Duration
        public var change: Change
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based position of the item among the `;`-separated parts.
        public var item: Int
        public var text: String
        public var reason: String

        public var description: String { "uplink schedule item \(item) \"\(text)\": \(reason)" }
    }

    /// In time order.
    public let steps: [Step]

    static let longestDelay: UInt64 = 10_000_000_000

    /// Whether any step needs the relay.
    public var needsRelay: Bool { steps.contains { $0.change.isRelays } }

    public init(parsing text: String) throws(ParseError) {
        var steps: [Step] = []
        var down = false
        var stalled = false
        var previous: UInt64 = 0
        for (index, raw) in text.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
            let item = raw.trimmingSpaces
            if item.isEmpty { continue }
            let fail = { (reason: String) in ParseError(item: index + 1, text: String(item), reason: reason) }
            guard let colon = item.firstIndex(of: ":") else { throw fail("expected <time>:<action>, e.g. 20s:rate=600kbit") }
            let nanoseconds: UInt64
            switch DurationText.nanoseconds(item[..<colon].trimmingSpaces) {
            case .success(let value): nanoseconds = value
            case .failure(let error): throw fail(error.reason)
            }
            guard nanoseconds >= previous else { throw fail("times must not go backwards") }
            previous = nanoseconds
            let action = item[item.index(after: colon)...].trimmingSpaces
            // down/up and stall/resume turn a state on or off; doing what is already so is refused.
            func turn(_ state: inout Bool, _ on: Bool, _ refusal: String) throws(ParseError) {
                guard state != on else { throw fail(refusal) }
                state = on
            }
            let change: Change
            switch action {
            case "down":
                try turn(&down, true, "the link is already down")
                change = .down
            case "up":
                try turn(&down, false, "the link is not down")
                change = .up
            case "stall":
                try turn(&stalled, true, "the server is already stalled")
                change = .stall
            case "resume":
                try turn(&stalled, false, "the server is not stalled")
                change = .resume
            case _ where action.hasPrefix("delay="):
                let value = action.dropFirst(6)
                switch DurationText.nanoseconds(value) {
                case .success(let delay) where delay <= Self.longestDelay:
                    change = .delay(nanoseconds: delay)
                case .success: throw fail("delay \"\(value)\" is longer than 10s")
                case .failure(let error): throw fail(error.reason)
                }
            default:
                guard action.hasPrefix("rate=") else {
                    throw fail("unknown action \"\(action)\": expected rate=<number><unit>, down, up, delay=<time>, stall or resume")
                }
                guard let bits = Self.bitsPerSecond(action.dropFirst(5)), bits >= 8 else {
                    throw fail("bad rate \"\(action.dropFirst(5))\": expected a number and bit, kbit, mbit or gbit, at least 8bit")
                }
                change = .rate(bitsPerSecond: bits)
            }
            steps.append(Step(time: .nanoseconds(Int64(clamping: nanoseconds)), change: change))
        }
        self.steps = steps
    }

    /// The decimal (SI) multiples of a bit rate, largest first: how a schedule writes them, and
    /// how `format` prints them.
    private static let units: [(scale: UInt64, schedule: String, printed: String)] = {
        let kilo: UInt64 = 1000
        return [(kilo * kilo * kilo, "gbit", "Gb/s"), (kilo * kilo, "mbit", "Mb/s"), (kilo, "kbit", "kb/s"), (1, "bit", "b/s")]
    }()

    /// `4mbit`, `600kbit`, `1.5mbit`, `8bit` in bits per second; nil when not a rate.
    static func bitsPerSecond(_ text: Substring) -> UInt64? {
        guard let (scale, suffix, _) = units.first(where: { text.hasSuffix($0.schedule) }) else { return nil }
        let number = text.dropLast(suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard digits(parts[0]), parts.count == 1 || digits(parts[1]), let whole = UInt64(parts[0]) else { return nil }
        var fraction: UInt64 = 0, fractionScale: UInt64 = 1
        for digit in parts.count > 1 ? parts[1] : "" {
            guard fractionScale < scale else { return nil }
            fraction = fraction * 10 + UInt64(digit.wholeNumberValue!)
            fractionScale *= 10
        }
        let (product, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow, product <= 100_000_000_000 else { return nil }
        return product + fraction * scale / fractionScale
    }

    /// "4 Mb/s", "600 kb/s", "1.5 Mb/s", "8 b/s".
    public static func format(bitsPerSecond bits: UInt64) -> String {
        for (scale, _, unit) in units.dropLast() where bits >= scale {
            let hundredths = bits * 100 / scale
            let text = hundredths % 100 == 0 ? "\(hundredths / 100)" : hundredths % 10 == 0
                ? "\(hundredths / 100).\(hundredths / 10 % 10)" : "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
            return "\(text) \(unit)"
        }
        return "\(bits) b/s"
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
