// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import ReplayKitModel

/// ReplayKit's memory limit, emulated: iOS kills an upload extension whose footprint passes
/// its limit, whatever it was doing. The footprint is read on the system clock's own thread
/// every `interval`, so a watch goes on while the streaming threads are blocked (a stalled
/// uplink) and costs them nothing. Fires once.
final class MemoryWatch: @unchecked Sendable {
    /// Between two readings. A queue growing at full-size raw video's 50 MB/s passes the limit
    /// by at most 2.5 MB before the watch sees it.
    static let interval: GstClockTime = 50_000_000

    private let clock: UnsafeMutablePointer<GstClock>
    private let id: GstClockID

    private final class Check {
        let limit: UInt64
        let exceeded: @Sendable (UInt64) -> Void
        var fired = false
        init(limit: UInt64, exceeded: @escaping @Sendable (UInt64) -> Void) {
            self.limit = limit
            self.exceeded = exceeded
        }
    }

    /// Calls `exceeded` (on the clock's thread) with the footprint the first time it is over `limit`.
    init(limit: UInt64, exceeded: @escaping @Sendable (UInt64) -> Void) {
        clock = gst_system_clock_obtain()
        id = gst_clock_new_periodic_id(clock, gst_clock_get_time(clock), Self.interval)
        let check = Unmanaged.passRetained(Check(limit: limit, exceeded: exceeded)).toOpaque()
        gst_clock_id_wait_async(id, { _, _, _, data in
            let check = Unmanaged<Check>.fromOpaque(data!).takeUnretainedValue()
            // Entries of one periodic id run one after another on the clock's thread.
            guard !check.fired, let footprint = ProcessMemory.footprint(), footprint > check.limit else { return 1 }
            check.fired = true
            check.exceeded(footprint)
            return 1
        }, check, { Unmanaged<Check>.fromOpaque($0!).release() })
    }

    /// No call comes after this but one already under way: the broadcast's stop drops the watch.
    deinit {
        gst_clock_id_unschedule(id)
        gst_clock_id_unref(id)
        gst_object_unref(clock)
    }
}
