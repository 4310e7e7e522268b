// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// adaptive-bitrate's decisions, from what the connection shows every `interval`: how much
/// media waits to be sent (in front of rtmp2sink, and in the kernel's send buffer, turned
/// into time at the rate the server acknowledges), and that rate. As OBS's dynamic bitrate
/// and Moblin's adaptive bitrate do: down at once, well below what gets through so the
/// backlog drains; up in steps after the link has kept up for a while, never above what was
/// configured.
struct BitrateAdaptation {
    enum Reason: String {
        /// The link is behind: media waits in front of the sender.
        case congested
        /// The link kept up for `steadyTime`.
        case recovered
    }

    struct Decision: Equatable {
        /// kbit/s.
        var old: Int
        var new: Int
        var reason: Reason
        /// Nanoseconds of media waiting to be sent when decided.
        var queued: UInt64
        /// What the server acknowledged over the last `rateWindow`, in kbit/s.
        var sendRate: Int
    }

    static let interval: UInt64 = 250_000_000
    /// SRT: a link that falls behind loses pictures at once, so it is looked at more often.
    static let srtInterval: UInt64 = 100_000_000

    /// How much waiting media means what, in nanoseconds, and how soon a step down may follow
    /// another.
    struct QueueLimits: Equatable {
        /// More means the link is behind.
        var congested: UInt64
        /// At most this much counts as keeping up.
        var steady: UInt64
        var holdDown: UInt64

        /// Media in front of rtmp2sink and in the socket's buffer: TCP delivers it late, never
        /// loses it, so a step down can wait for the encoder to reach the last one.
        static let rtmp = QueueLimits(congested: 500_000_000, steady: 100_000_000, holdDown: Timebase.nanosecondsPerSecond)

        /// A queue on an SRT connection's path: a packet that waits there longer than about
        /// the latency arrives too late and the receiver drops it, so half of the latency
        /// is already behind, and every moment above the link loses pictures.
        static func srt(latencyMilliseconds: Int) -> QueueLimits {
            let latency = UInt64(max(latencyMilliseconds, 20)) * 1_000_000
            return QueueLimits(congested: latency / 2, steady: latency / 8, holdDown: 500_000_000)
        }

        /// Losing packets behind a queue that makes them late (SRT): what enters the queue
        /// now is lost, and what got through says nothing of the slower link.
        func flooded(queued: UInt64, losing: Bool) -> Bool { losing && queued > congested }
    }
    /// How long the link must keep up before a step up, and the least time between changes
    /// in the same direction (the encoder needs a moment to reach a new rate).
    static let steadyTime: UInt64 = 2_000_000_000
    /// Short, so a rate measured just after the link slowed is the slow one.
    static let rateWindow = Timebase.nanosecondsPerSecond
    /// A new rate after congestion: this share of what got through, leaving the rest (and
    /// the audio's share) to drain the backlog.
    static let drainShare = 0.5
    /// A step up: 40 % (at least 100 kbit/s), every `steadyTime`: from the minimum to 2.5 Mb/s in 14 s.
    static let stepUp = 1.4
    /// After congestion, steps up stop at this share of what got through then, for
    /// `ceilingTime`: probing straight back above a link that has not changed would fill
    /// the queue again. After that, probing goes on, as the link may have recovered.
    static let ceilingShare = 0.8
    static let ceilingTime: UInt64 = 10_000_000_000

    let configured: Int
    let minimum: Int
    private(set) var current: Int
    private var lastChange: (time: UInt64, reason: Reason)?
    private var steadySince: UInt64?
    private var ceiling: (rate: Int, until: UInt64)?
    /// (time, bytes sent) every `interval` over the last `rateWindow`, oldest first.
    private var samples: [(time: UInt64, sent: UInt64)] = []

    /// `configured` and `minimum` in kbit/s.
    init(configured: Int, minimum: Int) {
        self.configured = configured
        self.minimum = min(minimum, configured)
        current = configured
        samples.reserveCapacity(Int(Self.rateWindow / Self.srtInterval) + 2)
    }

    /// A new connection: its sender counts from 0, and the link may be another.
    mutating func restart() {
        samples.removeAll(keepingCapacity: true)
        steadySince = nil
    }

    /// `queued`: nanoseconds of media in front of the sender; `sentBytes`: what it wrote to
    /// the socket; `unsentBytes`: what of that the server has not acknowledged yet;
    /// `losing`: the link loses packets (SRT), behind whatever the queue says.
    mutating func observe(now: UInt64, queued: UInt64, sentBytes: UInt64, unsentBytes: UInt64,
                          losing: Bool = false, limits: QueueLimits = .rtmp) -> Decision? {
        let delivered = sentBytes - min(unsentBytes, sentBytes)
        if let last = samples.last, delivered < last.sent { samples.removeAll(keepingCapacity: true) }
        samples.append((now, delivered))
        while let first = samples.first, now - first.time > Self.rateWindow { samples.removeFirst() }
        let sendRate = Self.rate(samples, over: Self.rateWindow)
        let queued = queued + Self.time(unsentBytes, at: sendRate)

        if queued > limits.congested || losing {
            steadySince = nil
            // Flooded: anything above the slower link floods the queue again once it drains.
            let flooded = limits.flooded(queued: queued, losing: losing)
            guard let sendRate, flooded || held(now, after: .congested, limits) else { return nil }
            // Packets lost (SRT): what got through is an overestimate (losses are reported a
            // round trip late; just after the link slowed the last second is mostly the fast
            // link's), and every moment above the link loses pictures. So down from no more
            // than the encoder's own rate, and further, until nothing is lost.
            let through = losing ? min(sendRate, current) : sendRate
            ceiling = (max(minimum, Int(Double(through) * Self.ceilingShare)), now + Self.ceilingTime)
            let target = flooded ? minimum : max(minimum, Int(Double(through) * Self.drainShare * (losing ? Self.drainShare : 1)))
            guard target < current else { return nil }
            return change(to: target, .congested, now: now, queued: queued, sendRate: sendRate)
        }
        guard queued <= limits.steady else {
            steadySince = nil
            return nil
        }
        let since = steadySince ?? now
        steadySince = since
        guard current < configured, now - since >= Self.steadyTime, held(now, after: .recovered, limits) else { return nil }
        var target = min(configured, max(current + 100, Int(Double(current) * Self.stepUp)))
        if let ceiling, now < ceiling.until { target = min(target, ceiling.rate) }
        guard target > current else { return nil }
        steadySince = now
        return change(to: target, .recovered, now: now, queued: queued, sendRate: sendRate ?? 0)
    }

    /// Whether a change for `reason` may come now: a step down may follow a step up at once,
    /// but two in the same direction are `holdDown` apart (`steadyTime` for steps up).
    private func held(_ now: UInt64, after reason: Reason, _ limits: QueueLimits) -> Bool {
        guard let lastChange, lastChange.reason == reason else { return true }
        return now - lastChange.time >= (reason == .congested ? limits.holdDown : Self.steadyTime)
    }

    private mutating func change(to target: Int, _ reason: Reason, now: UInt64, queued: UInt64, sendRate: Int) -> Decision {
        let decision = Decision(old: current, new: target, reason: reason, queued: queued, sendRate: sendRate)
        current = target
        lastChange = (now, reason)
        return decision
    }

    /// Nanoseconds `bytes` take at `rate` kbit/s; with no rate known yet, none (nothing
    /// was measured to say otherwise), and a second for a link that delivers nothing.
    private static func time(_ bytes: UInt64, at rate: Int?) -> UInt64 {
        guard bytes > 0, let rate else { return 0 }
        guard rate > 0 else { return Timebase.nanosecondsPerSecond }
        return bytes * 8 * 1_000_000 / UInt64(rate)
    }

    /// kbit/s over the last `window` of samples, once they span at least half of it.
    private static func rate(_ samples: [(time: UInt64, sent: UInt64)], over window: UInt64) -> Int? {
        guard let last = samples.last, let first = samples.first(where: { last.time - $0.time <= window }),
              last.time - first.time >= window / 2 else { return nil }
        return Int((last.sent - first.sent) * 8 * 1_000_000 / (last.time - first.time))
    }
}
