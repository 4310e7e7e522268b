// SPDX-License-Identifier: LGPL-2.1-or-later
/// When the emulated screen changes, and so when ReplayKit would hand over a video frame.
///
/// Grammar (the `activity` property):
///
///     animated                  the screen changes all the time
///     static                    the screen never changes after the first frame
///     busy:2s,idle:3s[,…]       segments of changing (busy) and unchanging (idle) screen,
///                               repeated from the start forever
///
/// Segment durations use `DurationText` (`500ms`, `2s`, `1.5m`…) and must be positive;
/// spaces around segments and around `:` are allowed. A pattern may start with either state
/// and may list several segments of the same state in a row.
///
/// Frames follow the display's refresh, capped at `maxFramesPerSecond`: candidate frame times
/// ("slots") are `k · 10⁹ / fps` ns from the start of the broadcast, rounded down. The frame
/// at slot 0 always goes out (the screen as the broadcast starts, even for `static`). After
/// that a slot gets a frame when the screen changed since the previous slot, i.e. some busy
/// time lies in `(previous slot, slot]`. That gives every slot inside a busy period a frame,
/// plus exactly one frame at the first slot at or after the end of each busy period, which
/// shows the screen as it settled; then no frames until the next busy period. A busy period
/// shorter than a slot still gets its one frame.
public struct ScreenActivity: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        public var busy: Bool
        /// Nanoseconds, > 0.
        public var duration: UInt64

        public init(busy: Bool, duration: UInt64) {
            self.busy = busy
            self.duration = duration
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based segment position, 0 when the problem is the text as a whole.
        public var segment: Int
        public var text: String
        public var reason: String

        public var description: String {
            segment == 0 ? "activity \"\(text)\": \(reason)" : "activity segment \(segment) \"\(text)\": \(reason)"
        }
    }

    /// One period of the pattern: `[busy: true]` for animated, `[]` for static.
    public let segments: [Segment]
    let period: UInt64

    public static let animated = ScreenActivity(segments: [Segment(busy: true, duration: 1)])
    public static let `static` = ScreenActivity(segments: [])

    /// A repeating pattern; an all-busy pattern behaves like `animated` and one without
    /// busy segments like `static`.
    public init(segments: [Segment]) {
        precondition(segments.allSatisfy { $0.duration > 0 }, "activity segments need positive durations")
        if !segments.contains(where: \.busy) {
            self.segments = []
        } else if segments.allSatisfy(\.busy) {
            self.segments = [Segment(busy: true, duration: 1)]
        } else {
            self.segments = segments
        }
        period = self.segments.reduce(0) { $0 + $1.duration }
    }

    public init(parsing text: String) throws(ParseError) {
        let whole = Substring(text).trimmed
        switch whole {
        case "animated": self = .animated; return
        case "static": self = .static; return
        case "":
            throw ParseError(segment: 0, text: text, reason: "empty (expected animated, static or busy:<time>,idle:<time>…)")
        default: break
        }
        var segments: [Segment] = []
        var total: UInt64 = 0
        for (index, rawPart) in whole.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let part = rawPart.trimmed
            let fail = { (reason: String) in ParseError(segment: index + 1, text: String(part), reason: reason) }
            guard let colon = part.firstIndex(of: ":") else {
                throw fail("expected busy:<time> or idle:<time> (or the whole value animated or static)")
            }
            let state = part[..<colon].trimmed
            guard state == "busy" || state == "idle" else {
                throw fail("unknown state \"\(state)\" (expected busy or idle)")
            }
            let duration: UInt64
            switch DurationText.nanoseconds(part[part.index(after: colon)...].trimmed) {
            case .success(let value): duration = value
            case .failure(let error): throw fail(error.reason)
            }
            guard duration > 0 else { throw fail("a segment must last longer than 0") }
            let (sum, overflow) = total.addingReportingOverflow(duration)
            guard !overflow else { throw fail("the pattern is too long") }
            total = sum
            segments.append(Segment(busy: state == "busy", duration: duration))
        }
        self.init(segments: segments)
    }

    /// Whether the screen is changing at `time` (ns since the broadcast started).
    public func isChanging(at time: UInt64) -> Bool {
        nextChange(atOrAfter: time) == time
    }

    /// The first time at or after `time` when the screen is changing, or nil if it never does.
    public func nextChange(atOrAfter time: UInt64) -> UInt64? {
        guard period > 0 else { return nil }
        let phase = time % period
        var segmentStart: UInt64 = 0
        for segment in segments {
            let segmentEnd = segmentStart + segment.duration
            if phase < segmentEnd && segment.busy { return time + (phase >= segmentStart ? 0 : segmentStart - phase) }
            segmentStart = segmentEnd
        }
        // Past the last busy segment of this period: the next one starts the first busy
        // segment of the following period.
        let firstBusyOffset = segments.prefix { !$0.busy }.reduce(0) { $0 + $1.duration }
        return time + (period - phase) + firstBusyOffset
    }

    /// When the next video frame is due: `last` is the previous frame's time (nil before
    /// the first frame). Nil when no frame will ever follow.
    public func nextFrameTime(after last: UInt64?, maxFramesPerSecond fps: Int) -> UInt64? {
        precondition(fps > 0, "the frame rate cap must be positive")
        guard let last else { return 0 }
        let slots = FrameSlots(fps: fps)
        let candidate = slots.firstSlot(after: last)
        // The candidate slot covers (previous slot, candidate]; the first change after the
        // previous slot decides which slot gets the next frame.
        guard let change = nextChange(atOrAfter: slots.time(ofSlot: candidate - 1) + 1) else { return nil }
        return slots.time(ofSlot: max(candidate, slots.firstSlot(atOrAfter: change)))
    }
}

extension ScreenActivity: CustomStringConvertible {
    public var description: String {
        if segments.isEmpty { return "static" }
        if segments.count == 1 { return "animated" }
        return segments.map { "\($0.busy ? "busy" : "idle"):\(DurationText.format($0.duration))" }.joined(separator: ",")
    }
}
