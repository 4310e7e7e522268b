// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// The audio level of RFC 6464 (the RTP header extension), which GStreamer carries in
/// GstAudioLevelMeta, measured as GStreamer's `level` measures it: the RMS of all samples of
/// one buffer, every channel together, in dBov, negated and cut to whole dB (level converts
/// with a C cast, which truncates). 0 is full scale, 127 the quietest value the 7-bit field
/// holds. Chosen once per format; allocates nothing after init.
public final class AudioLevel {
    /// The value for digital silence and anything quieter than −127 dBov.
    public static let silence: UInt8 = 127

    /// Every sample counts alike whatever its channel, so one accumulator sums them all.
    let kernel: ChannelLevelKernel
    let fullScale: Double

    public init(format: SampleFormat) {
        kernel = ChannelLevelKernel(format: format, channels: 1)
        fullScale = format.fullScale
    }

    /// The level of `count` interleaved samples (frames × channels); an empty buffer is silent.
    public func measure(_ samples: UnsafeRawPointer, count: Int) -> UInt8 {
        guard count > 0 else { return Self.silence }
        kernel.add(samples, frames: count)
        var sumOfSquares = 0.0, peak = 0.0
        kernel.drain(sumsOfSquares: &sumOfSquares, peaks: &peak)
        return Self.level(meanSquare: sumOfSquares / Double(count) / (fullScale * fullScale))
    }

    /// −dBov of a mean square (full scale 1.0) truncated toward zero, held to 0…127: above
    /// full scale reads 0, silence 127 (level's cast would wrap both out of the field's range).
    /// Computed from the RMS in the order level computes it, so whole-dB cuts fall alike.
    public static func level(meanSquare: Double) -> UInt8 {
        let belowFullScale = -20 * log10(meanSquare.squareRoot())
        guard belowFullScale > 0 else { return 0 }
        return belowFullScale < Double(silence) ? UInt8(belowFullScale) : silence
    }
}
