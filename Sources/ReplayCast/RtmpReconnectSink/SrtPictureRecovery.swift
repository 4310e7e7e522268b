// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// adaptive-bitrate over SRT, after packets are lost: the pictures after them cannot be
/// decoded until a keyframe, and while the link's queue makes packets late, whatever enters
/// it is lost too. So video is held back until the queue has drained and the
/// retransmissions the receiver asks for have stopped, then goes on from a keyframe asked
/// for then; after loss without such a queue, a keyframe is asked for once nothing more is
/// lost.
struct SrtPictureRecovery {
    enum Action: Equatable {
        /// Hold video back for at least this many nanoseconds.
        case hold(UInt64)
        /// Video goes on, from a keyframe, after being held back for this many nanoseconds.
        case resume(after: UInt64)
        /// Ask for a keyframe: the link keeps up again after losing packets.
        case keyframe
    }

    static let longestHold: UInt64 = Timebase.nanosecondsPerSecond

    /// When video began to be held back, and the least time it is held until.
    private(set) var holding: (since: UInt64, until: UInt64)?
    private var pictureLost = false
    /// Losses of what was sent before video was held back go on being reported for a round trip.
    private var lossesIgnoredUntil: UInt64 = 0

    /// A new connection.
    mutating func restart() {
        holding = nil
        pictureLost = false
        lossesIgnoredUntil = 0
    }

    mutating func observe(_ link: SrtLinkReading.Observation, now: UInt64) -> Action? {
        if let holding {
            // Packets still reported lost are asked for again, and their retransmissions fill
            // the queue in front of the keyframe: the hold lasts until a look finds no loss.
            guard now >= holding.until && (!link.losing || now >= holding.since + Self.longestHold) else { return nil }
            self.holding = nil
            pictureLost = false
            lossesIgnoredUntil = now + link.queued + BitrateAdaptation.srtInterval
            return .resume(after: now - holding.since)
        }
        if link.losing && now >= lossesIgnoredUntil {
            pictureLost = true
            guard link.limits.flooded(queued: link.queued, losing: true) else { return nil }
            // How long the queue takes to empty cannot be watched: audio's few packets hardly
            // move libsrt's round trip, which is smoothed and lags the queue (at the first loss
            // it shows about half of it).
            let time = min(Self.longestHold, link.queued * 3 + BitrateAdaptation.srtInterval)
            holding = (now, now + time)
            return .hold(time)
        }
        if pictureLost && !link.losing && link.queued <= link.limits.congested {
            pictureLost = false
            return .keyframe
        }
        return nil
    }
}
