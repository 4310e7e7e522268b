// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayKitModel

extension Broadcast {
    /// This process's private resident memory in bytes, the figure replaykitsrc's
    /// `memory-limit` holds against the limit; nil where /proc cannot be read.
    public static var memoryFootprint: UInt64? { ProcessMemory.footprint() }
}
