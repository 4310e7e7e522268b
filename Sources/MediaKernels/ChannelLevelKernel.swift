// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernelsAVX2

/// MediaKernels' name for the sample layouts (declared beside the AVX2 loops that read them).
public typealias SampleFormat = MediaKernelsAVX2.SampleFormat

/// Per-channel sum of squares and largest magnitude of interleaved samples, in raw sample
/// units. Vector accumulators persist across calls and are read out once per interval by
/// `drain`, so a buffer costs its samples and almost nothing else. Chosen once per format
/// and channel count; allocates nothing after init.
public final class ChannelLevelKernel {
    public let format: SampleFormat
    public let channels: Int
    /// Whether the AVX2 copy of the loops runs (else baseline x86-64).
    public let usesAVX2: Bool
    private let lanes: LevelLanes

    public convenience init(format: SampleFormat, channels: Int) {
        self.init(format: format, channels: channels, loops: .fastest)
    }

    init(format: SampleFormat, channels: Int, loops: KernelLoops) {
        precondition(channels > 0)
        self.format = format
        self.channels = channels
        usesAVX2 = loops.useAVX2
        lanes = usesAVX2 ? MediaKernelsAVX2.LevelLoops.lanes(format: format, channels: channels)
            : LevelLoops.lanes(format: format, channels: channels)
    }

    /// Adds `frames` interleaved frames starting at `samples`.
    public func add(_ samples: UnsafeRawPointer, frames: Int) {
        lanes.add(samples, frames * channels)
    }

    /// Writes the largest magnitude per channel since the last call (or drain) into `peaks`
    /// (raw units) and starts the peaks afresh; the sums go on accumulating.
    public func takePeaks(_ peaks: UnsafeMutablePointer<Double>) {
        lanes.takePeaks(peaks)
    }

    /// Adds everything accumulated since the last drain into `sumsOfSquares` and `peaks`
    /// (per channel, raw units) and starts afresh.
    public func drain(sumsOfSquares: UnsafeMutablePointer<Double>, peaks: UnsafeMutablePointer<Double>) {
        lanes.drain(sumsOfSquares, peaks)
    }
}
