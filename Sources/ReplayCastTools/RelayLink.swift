// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// The link an uplink relay makes itself, where no kernel link shapes its port (a swarm's
/// broadcasters, each through a relay of its own, to an ingest anywhere): a rate, as a token
/// bucket whose burst is 10 ms at the rate (one full-size packet at least), and down.
/// Over UDP what waits for the rate longer than `ShapedUplink.queueTime` is dropped, as a
/// drop-tail queue drops, and everything is lost while down. A TCP stream cannot lose bytes:
/// the relay stops reading once that much waits, so the sender meets a full window, and
/// while down nothing passes.
struct RelayLink {
    /// Bits per second; nil: no limit.
    var rate: UInt64?
    var down = false
    private var tokens = 0.0
    private var refilled: UInt64?

    var isShaping: Bool { rate != nil || down }

    mutating func refill(now: UInt64) {
        defer { refilled = now }
        guard let rate, let refilled else { return }
        let perSecond = Double(rate) / 8
        tokens = min(max(1514, perSecond * 0.01), tokens + perSecond * Timebase.seconds(now &- refilled))
    }

    /// Bytes that may go now.
    var allowance: Int { down ? 0 : rate == nil ? .max : Int(tokens) }

    mutating func spend(_ bytes: Int) {
        if rate != nil { tokens -= Double(bytes) }
    }

    /// What may wait for the link: a queue's worth at the rate; `unshaped` without a rate.
    func queueBytes(unshaped: Int) -> Int {
        rate.map { max(65_536, ShapedUplink.queueBytes($0)) } ?? unshaped
    }
}
