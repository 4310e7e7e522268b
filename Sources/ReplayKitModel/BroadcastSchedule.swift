// SPDX-License-Identifier: LGPL-2.1-or-later
/// A scripted broadcast: what happens when, parsed from a property string such as
/// `"5s:pause; 8s:resume; 10s:orientation=right; 12s:mic-format=24000; 15s:call-start; 18s:call-end; 20s:finish"`.
///
/// Grammar: items separated by `;` (empty items, such as a trailing `;`, are skipped), each
/// `<time>:<action>` with optional spaces around the parts. Times are measured from the
/// start of the broadcast, written as `DurationText` accepts them (`500ms`, `5s`, `1.5s`,
/// `2m`, `0.25h`) and must not go backwards; items at the same time keep their written order.
/// Actions:
///
///     pause | resume | finish | call-start | call-end
///     orientation=up|down|left|right
///     mic-format=<rate>[/<channels>]     rate 8000…96000 Hz, channels 1…3
///     mic=on|off|silence
///
/// The schedule must also make sense as a ReplayKit lifecycle, because ReplayKit never
/// delivers anything else: no `pause` while paused, no `resume` unless paused, no
/// `call-start` during a call or `call-end` outside one, and nothing after `finish`.
public struct BroadcastSchedule: Sendable, Equatable {
    public struct Event: Sendable, Equatable {
        /// Nanoseconds since the broadcast started.
        public var time: UInt64
        public var action: BroadcastAction

        public init(time: UInt64, action: BroadcastAction) {
            self.time = time
            self.action = action
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based position of the item among the `;`-separated parts.
        public var item: Int
        /// The item as written, without surrounding spaces.
        public var text: String
        public var reason: String

        public var description: String { "schedule item \(item) \"\(text)\": \(reason)" }
    }

    public static let micRates = 8000 ... 96000
    public static let micChannels = 1 ... 3

    /// In time order.
    public let events: [Event]

    public init(events: [Event] = []) {
        self.events = events.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    public init(parsing text: String) throws(ParseError) {
        var events: [Event] = []
        var lifecycle = Lifecycle()
        var previousTime: (value: UInt64, text: Substring)?
        for (index, rawItem) in text.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
            let item = rawItem.trimmed
            if item.isEmpty { continue }
            let fail = { (reason: String) in ParseError(item: index + 1, text: String(item), reason: reason) }
            guard let colon = item.firstIndex(of: ":") else {
                throw fail("expected <time>:<action>, e.g. 5s:pause")
            }
            let timeText = item[..<colon].trimmed
            let time: UInt64
            switch DurationText.nanoseconds(timeText) {
            case .success(let value): time = value
            case .failure(let error): throw fail(error.reason)
            }
            if let previous = previousTime, time < previous.value {
                throw fail("time \"\(timeText)\" is earlier than the previous item's \"\(previous.text)\"")
            }
            previousTime = (time, timeText)
            let action: BroadcastAction
            switch Self.parseAction(item[item.index(after: colon)...].trimmed) {
            case .success(let value): action = value
            case .failure(let error): throw fail(error.reason)
            }
            if let problem = lifecycle.apply(action) { throw fail(problem) }
            events.append(Event(time: time, action: action))
        }
        self.events = events
    }

    /// The events with `range.lowerBound ≤ time < range.upperBound`, found by binary search.
    public func events(in range: Range<UInt64>) -> ArraySlice<Event> {
        events[firstIndex(atOrAfter: range.lowerBound) ..< firstIndex(atOrAfter: range.upperBound)]
    }

    /// Index of the first event at or after `time` (`events.count` if none): a cursor for
    /// callers that walk the schedule as time advances.
    public func firstIndex(atOrAfter time: UInt64) -> Int {
        var low = 0, high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    public struct ActionError: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// One action in the schedule's syntax (`pause`, `orientation=left`, `mic-format=24000/1`).
    public static func action(_ text: Substring) -> Result<BroadcastAction, ActionError> {
        parseAction(text.trimmed)
    }

    private static func parseAction(_ text: Substring) -> Result<BroadcastAction, ActionError> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmed
        let value = parts.count > 1 ? parts[1].trimmed : nil
        let fail = { (reason: String) in Result<BroadcastAction, ActionError>.failure(ActionError(reason: reason)) }
        let plain: [Substring: BroadcastAction] = [
            "pause": .pause, "resume": .resume, "finish": .finish, "call-start": .callStart, "call-end": .callEnd,
        ]
        if let action = plain[name] {
            return value == nil ? .success(action) : fail("action \"\(name)\" takes no value")
        }
        switch name {
        case "orientation":
            let choices = "up, down, left or right"
            guard let value else { return fail("action \"orientation\" needs a value: \(choices)") }
            guard let orientation = VideoOrientation(rawValue: String(value)) else {
                return fail("unknown orientation \"\(value)\" (expected \(choices))")
            }
            return .success(.orientation(orientation))
        case "mic":
            let choices = "on, off or silence"
            guard let value else { return fail("action \"mic\" needs a value: \(choices)") }
            guard let mode = MicMode(rawValue: String(value)) else {
                return fail("unknown mic mode \"\(value)\" (expected \(choices))")
            }
            return .success(.mic(mode))
        case "mic-format":
            let usage = "<rate>[/<channels>], e.g. 24000 or 48000/3"
            guard let value, !value.isEmpty else { return fail("action \"mic-format\" needs a value: \(usage)") }
            let numbers = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rate = Int(numbers[0].trimmed) else {
                return fail("bad mic-format \"\(value)\" (expected \(usage))")
            }
            guard micRates.contains(rate) else {
                return fail("mic-format rate \(rate) is outside \(micRates.lowerBound)-\(micRates.upperBound) Hz")
            }
            guard numbers.count > 1 else { return .success(.micFormat(rate: rate, channels: nil)) }
            guard let channels = Int(numbers[1].trimmed) else {
                return fail("bad mic-format \"\(value)\" (expected \(usage))")
            }
            guard micChannels.contains(channels) else {
                return fail("mic-format channels \(channels) is outside \(micChannels.lowerBound)-\(micChannels.upperBound)")
            }
            return .success(.micFormat(rate: rate, channels: channels))
        default:
            return fail("unknown action \"\(name)\"")
        }
    }

    /// The ordering rules of the ReplayKit lifecycle, checked while parsing.
    private struct Lifecycle {
        var paused = false
        var inCall = false
        var finished = false

        mutating func apply(_ action: BroadcastAction) -> String? {
            if finished { return "nothing may follow finish" }
            switch action {
            case .pause:
                if paused { return "pause while already paused" }
                paused = true
            case .resume:
                if !paused { return "resume while not paused" }
                paused = false
            case .callStart:
                if inCall { return "call-start during a call" }
                inCall = true
            case .callEnd:
                if !inCall { return "call-end without call-start" }
                inCall = false
            case .finish:
                finished = true
            case .orientation, .micFormat, .mic:
                break
            }
            return nil
        }
    }
}

extension BroadcastSchedule: CustomStringConvertible {
    /// The schedule in its own syntax: parsing it again gives the same events.
    public var description: String {
        events.map { "\(DurationText.format($0.time)):\($0.action)" }.joined(separator: "; ")
    }
}

extension Substring {
    var trimmed: Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" || character == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first ... last]
    }
}
