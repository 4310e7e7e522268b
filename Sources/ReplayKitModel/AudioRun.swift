// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// The buffers of one uninterrupted stretch of an audio stream: from the broadcast's start,
/// a resume, or a format change, until the next interruption.
///
/// Content frames are counted on the broadcast clock, not per run: a run starting at time t
/// starts at programme frame ⌈t · rate / 10⁹⌉, so audio after a pause continues where the
/// programme has got to in the meantime, as an app keeps playing while a broadcast is
/// paused. Timestamps come from frame counts, so a run never drifts however long it lasts,
/// and one buffer ends exactly where the next begins. A buffer is handed over when its last
/// sample has been captured (`deliveryTime`): that is what makes iOS 12's 22,596-frame
/// bursts arrive ~512 ms late and all at once.
public struct AudioRun: Sendable, Equatable {
    public struct Buffer: Sendable, Equatable {
        /// Programme frame of the first sample: pass it to `ProgramAudio.render(from:…)`.
        public var firstFrame: Int64
        public var frames: Int
        /// ns since the broadcast started, of the first sample.
        public var presentationTime: UInt64
        public var duration: UInt64
        /// ns since the broadcast started, when ReplayKit would hand the buffer over.
        public var deliveryTime: UInt64 { presentationTime + duration }

        public init(firstFrame: Int64, frames: Int, presentationTime: UInt64, duration: UInt64) {
            self.firstFrame = firstFrame
            self.frames = frames
            self.presentationTime = presentationTime
            self.duration = duration
        }
    }

    public let rate: Int
    public let cadence: BufferCadence
    public let startFrame: Int64

    public init(rate: Int, cadence: BufferCadence, startTime: UInt64) {
        precondition(rate > 0, "a run needs a positive rate")
        self.rate = rate
        self.cadence = cadence
        startFrame = Int64(Timebase.count(inNanoseconds: startTime, atRate: UInt64(rate), .up))
    }

    /// Buffer `index` of the run (0 = the first after its start).
    public func buffer(_ index: Int) -> Buffer {
        let first = startFrame + cadence.startFrame(ofBuffer: index)
        let frames = cadence.frames(ofBuffer: index)
        let start = time(ofFrame: first)
        return Buffer(firstFrame: first, frames: frames, presentationTime: start,
                      duration: time(ofFrame: first + Int64(frames)) - start)
    }

    /// ⌊frame · 10⁹ / rate⌋: the time of a programme frame on the broadcast clock.
    public func time(ofFrame frame: Int64) -> UInt64 {
        Timebase.nanoseconds(UInt64(frame), atRate: UInt64(rate))
    }
}
