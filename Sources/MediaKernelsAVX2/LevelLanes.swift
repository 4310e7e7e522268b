// SPDX-License-Identifier: LGPL-2.1-or-later
/// One compiled copy of the level kernel's loops (`LevelLoops`) bound to a format and channel
/// count: `ChannelLevelKernel` holds one of these from either module and calls it per buffer.
package struct LevelLanes {
    /// Adds `samples` interleaved samples (whole frames).
    package let add: (UnsafeRawPointer, Int) -> Void
    /// Adds the sums of squares and peaks since the last drain, per channel in raw units, and
    /// starts afresh.
    package let drain: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>) -> Void
    /// Writes the peaks since the last call or drain and starts them afresh.
    package let takePeaks: (UnsafeMutablePointer<Double>) -> Void

    package init(add: @escaping (UnsafeRawPointer, Int) -> Void,
                 drain: @escaping (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>) -> Void,
                 takePeaks: @escaping (UnsafeMutablePointer<Double>) -> Void) {
        self.add = add
        self.drain = drain
        self.takePeaks = takePeaks
    }
}
