// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// Frame slot k is at ⌊k · 10⁹ / fps⌋ ns: integer times on an exact long-run frame rate.
public struct FrameSlots: Sendable {
    let fps: UInt64

    public init(fps: Int) { self.fps = UInt64(fps) }

    public func time(ofSlot slot: UInt64) -> UInt64 {
        Timebase.nanoseconds(slot, atRate: fps)
    }

    /// Smallest k with time(k) ≥ t, i.e. k · 10⁹ / fps ≥ t, i.e. k = ⌈t · fps / 10⁹⌉.
    public func firstSlot(atOrAfter t: UInt64) -> UInt64 {
        Timebase.count(inNanoseconds: t, atRate: fps, .up)
    }

    func firstSlot(after t: UInt64) -> UInt64 { firstSlot(atOrAfter: t + 1) }
}
