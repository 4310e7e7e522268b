// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// Audio from a file, decoded ahead of time at one stream's rate and channel count, that
/// `ProgramAudio` plays in place of its music or speech. Addressed by frame index like the
/// programmes: past its end it starts again (`loops`) or is silent.
public struct AudioClip: Sendable {
    public let rate: Int
    public let channels: Int
    public let frames: Int
    public let loops: Bool
    private let planes: [[Float]]

    /// `interleaved` holds `channels` samples per frame, full scale ±1.
    public init(interleaved: [Float], channels: Int, rate: Int, loops: Bool) {
        precondition(channels >= 1, "a clip has at least one channel")
        self.rate = rate
        self.channels = channels
        self.loops = loops
        frames = interleaved.count / channels
        planes = (0 ..< channels).map { channel in (0 ..< interleaved.count / channels).map { interleaved[$0 * channels + channel] } }
    }

    /// How long the clip lasts, in nanoseconds (rounded down).
    public var duration: UInt64 { Timebase.nanoseconds(UInt64(frames), atRate: UInt64(rate)) }

    /// Frames `first ..< first + count` of `channel` into `plane`.
    func render(from first: Int64, count: Int, channel: Int, into plane: UnsafeMutablePointer<Float>) {
        let source = planes[min(channel, channels - 1)]
        guard frames > 0 else {
            plane.update(repeating: 0, count: count)
            return
        }
        var done = 0
        while done < count {
            var position = first + Int64(done)
            if loops { position %= Int64(frames) }
            guard position < Int64(frames) else {
                (plane + done).update(repeating: 0, count: count - done)
                return
            }
            let run = min(count - done, frames - Int(position))
            source.withUnsafeBufferPointer { (plane + done).update(from: $0.baseAddress! + Int(position), count: run) }
            done += run
        }
    }
}
