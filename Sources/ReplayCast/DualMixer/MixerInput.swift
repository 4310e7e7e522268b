// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels
import ReplayCastSupport
import Synchronization

/// One dualmixer input (app or mic): its buffers are converted to Float, downmixed (three
/// channels), resampled to 48 kHz, upmixed (mono) and placed on a `StereoTimeline` at the
/// output frames their running times fall on.
///
/// Two threads use it. The input's upstream streaming thread does all of the above
/// (`setFormat`, `ingest`): the two inputs are processed in parallel, as they would be with
/// a resampler in front of a mixer. The aggregator's thread reads mixed ranges (`copy`,
/// `drop`) and, after EOS, when upstream has gone quiet, drains it (`finish`). The timeline
/// is the only thing they share, behind a lock held for copies only, never for processing.
final class MixerInput {
    static let outputRate = 48000
    /// Input timestamps may wander this far from their sample count before the input is
    /// realigned (GStreamer's usual audio alignment threshold).
    static let alignmentThreshold: UInt64 = 40_000_000

    let name: String
    /// The dualmixer, for its debug log.
    var element: UnsafeMutableRawPointer?
    private(set) var format: AudioFormat?
    private var resampler: Resampler?
    private var downmix: ChannelMapping?
    /// Mono to both sides; nil for stereo, which the timeline takes as the resampler writes it.
    private var upmix: ChannelMapping?
    private let timeline = Locked(StereoTimeline(capacity: 3 * outputRate))
    /// `lookahead`, kept apart from the resampler: dualmixer's latency covers both inputs, so
    /// the other input's thread reads it while this one's may be replacing the resampler.
    private let lookaheadTime = Atomic<UInt64>(0)
    /// Running time and input frames written since the input was last aligned.
    private var anchor: (runningTime: UInt64, frames: Int64)?
    /// Output frame the resampler's next output belongs to.
    private var outputCursor: Int64 = 0
    /// Whether the input's last frames were data (not a gap): what its drained tail counts as.
    private var lastFedPresent = true
    /// EOS seen and the resampler drained: silence from `timeline.end` on.
    private(set) var ended = false

    /// The input's segment as its upstream thread sees it (the base class updates the pad's
    /// own later, on the aggregator's thread), to time buffers as they arrive. Kept across
    /// flushes and restarts: upstream's next segment replaces it, and a flush handled late on
    /// the aggregator's thread must not erase one that already came.
    var segment = GstSegment()

    private var scratchCapacity = 0
    private var converted: UnsafeMutablePointer<Float>
    private var downmixed: UnsafeMutablePointer<Float>
    private var resampled: UnsafeMutablePointer<Float>
    private var stereo: UnsafeMutablePointer<Float>

    init(name: String) {
        self.name = name
        gst_segment_init(&segment, GST_FORMAT_TIME)
        converted = .allocate(capacity: 1)
        downmixed = .allocate(capacity: 1)
        resampled = .allocate(capacity: 1)
        stereo = .allocate(capacity: 1)
    }

    deinit {
        converted.deallocate()
        downmixed.deallocate()
        resampled.deallocate()
        stereo.deallocate()
    }

    /// New caps: whatever the old format still holds goes out first, then the new one starts
    /// where the old one ended (no gap, no overlap).
    func setFormat(_ newFormat: AudioFormat) {
        if newFormat == format { return }
        drainResampler()
        format = newFormat
        let resampledChannels = min(newFormat.channels, 2)
        let resampler = Resampler(inputRate: newFormat.rate, outputRate: Self.outputRate, channels: resampledChannels)
        self.resampler = resampler
        downmix = newFormat.channels == 3 ? ChannelMapping(inputChannels: 3) : nil
        upmix = resampledChannels == 1 ? ChannelMapping(inputChannels: 1) : nil
        lookaheadTime.store(Timebase.nanoseconds(UInt64(resampler.lookaheadInputFrames), atRate: UInt64(newFormat.rate)), ordering: .relaxed)
        anchor = nil
        DebugLog.dualmixer.info(element, "\(name): \(newFormat.sampleFormat) \(newFormat.rate) Hz \(newFormat.channels) channels, "
                                + "resampled to \(Self.outputRate) Hz")
    }

    /// Nanoseconds of input the resampler must see past an output frame before producing it.
    var lookahead: UInt64 { lookaheadTime.load(ordering: .relaxed) }

    func reset() {
        timeline.withLock { $0.reset(at: 0) }
        anchor = nil
        ended = false
        if let format { resampler = Resampler(inputRate: format.rate, outputRate: Self.outputRate, channels: min(format.channels, 2)) }
    }

    /// Output frame `index` lies at t0 + index / 48 kHz.
    static func outputFrame(atOrAfter runningTime: UInt64, t0: UInt64) -> Int64 {
        guard runningTime > t0 else { return 0 }
        return Int64(Timebase.count(inNanoseconds: runningTime - t0, atRate: UInt64(outputRate), .up))
    }

    /// Output frames nearest to `duration`, at least one: an output buffer's or a level interval's.
    static func outputFrames(lasting duration: UInt64) -> Int {
        max(1, Int(Timebase.count(inNanoseconds: duration, atRate: UInt64(outputRate), .nearest)))
    }

    static func time(ofOutputFrame index: Int64, t0: UInt64) -> UInt64 {
        t0 + Timebase.nanoseconds(UInt64(index), atRate: UInt64(outputRate))
    }

    /// Adds one buffer (or a GAP: `samples` nil) of `frames` input frames starting at `runningTime`.
    /// `firstNeeded` is the next output frame the mixer will produce: earlier frames are late.
    func ingest(_ samples: UnsafeRawPointer?, frames: Int, runningTime: UInt64, t0: UInt64, firstNeeded: Int64) {
        guard let format, frames > 0 else { return }
        if !isAligned(with: runningTime, rate: format.rate) {
            align(at: runningTime, t0: t0, firstNeeded: firstNeeded)
        }
        ensureScratch(frames)
        if let samples {
            PCMConversion.toFloat(samples, format: format.sampleFormat, samples: frames * format.channels, into: converted)
            feed(Self.mapped(converted, frames: frames, by: downmix, into: downmixed), frames: frames, present: true)
        } else {
            feed(nil, frames: frames, present: false)
        }
        anchor?.frames += Int64(frames)
    }

    private func isAligned(with runningTime: UInt64, rate: Int) -> Bool {
        guard let anchor else { return false }
        let expected = anchor.runningTime + Timebase.nanoseconds(UInt64(anchor.frames), atRate: UInt64(rate))
        let drift = runningTime > expected ? runningTime - expected : expected - runningTime
        return drift <= Self.alignmentThreshold
    }

    /// Places the input so its frame 0 sounds at `runningTime`: the resampler's first output
    /// is the first output frame at or after that time that is still to be mixed and not
    /// already on the timeline; input before it is skipped by the resampler.
    private func align(at runningTime: UInt64, t0: UInt64, firstNeeded: Int64) {
        guard let format, let resampler else { return }
        drainResampler()
        let wanted = max(Self.outputFrame(atOrAfter: runningTime, t0: t0), firstNeeded)
        let first = timeline.withLock { timeline in
            if timeline.count == 0 && timeline.end < firstNeeded { timeline.reset(at: firstNeeded) }
            if wanted > timeline.end { timeline.appendSilence(count: Int(wanted - timeline.end)) }
            return max(wanted, timeline.end)
        }
        let offset = Timebase.seconds(Int64(Self.time(ofOutputFrame: first, t0: t0)) - Int64(runningTime))
        resampler.reset(firstOutputAtInputFrame: offset * Double(format.rate))
        outputCursor = first
        DebugLog.dualmixer.debug(element, "\(name): aligned: running time \(runningTime) ns sounds at output frame \(first)"
                                 + (anchor == nil ? "" : " (timestamps had drifted from the sample count)"))
        anchor = (runningTime, 0)
    }

    /// Pushes input through the resampler and the upmix onto the timeline.
    private func feed(_ source: UnsafePointer<Float>?, frames: Int, present: Bool) {
        guard let resampler else { return }
        lastFedPresent = present
        let channels = resampler.channels
        var done = 0
        while done < frames {
            let taken = source.map { resampler.write($0 + done * channels, count: frames - done) }
                ?? resampler.writeSilence(count: frames - done)
            done += taken
            collect(present: present)
            if taken == 0 { break }
        }
    }

    /// Moves what the resampler can produce onto the timeline at the output frames it belongs
    /// to: frames the mixer has already passed (a late input) are dropped, a hole is silence.
    private func collect(present: Bool) {
        guard let resampler else { return }
        while true {
            let n = resampler.read(into: resampled, count: min(resampler.availableOutputFrames, scratchCapacity))
            guard n > 0 else { return }
            let output = Self.mapped(resampled, frames: n, by: upmix, into: stereo)
            let cursor = outputCursor
            let late = timeline.withLock { timeline in
                if cursor > timeline.end { timeline.appendSilence(count: Int(cursor - timeline.end)) }
                let late = Int(min(max(timeline.end - cursor, 0), Int64(n)))
                guard late < n else { return late }
                if present { timeline.append(output + 2 * late, count: n - late) } else { timeline.appendSilence(count: n - late) }
                return late
            }
            if late > 0 {
                DebugLog.dualmixer.debug(element, "\(name): \(late) frames from output frame \(cursor) came after the mix had passed them: dropped")
            }
            outputCursor += Int64(n)
        }
    }

    /// `samples` mapped into `scratch`, or `samples` as they are when there is no mapping.
    private static func mapped(_ samples: UnsafeMutablePointer<Float>, frames: Int, by mapping: ChannelMapping?,
                               into scratch: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
        guard let mapping else { return UnsafePointer(samples) }
        mapping.map(samples, frames: frames, gain: 1, into: scratch)
        return UnsafePointer(scratch)
    }

    /// Flushes the resampler's lookahead: the input's last frames reach the timeline.
    private func drainResampler() {
        guard let resampler, anchor != nil else { return }
        ensureScratch(resampler.lookaheadInputFrames + 1)
        _ = resampler.writeSilence(count: resampler.lookaheadInputFrames)
        collect(present: lastFedPresent)
        anchor = nil
    }

    /// End of stream (aggregator thread; upstream sends nothing after EOS): the remaining
    /// input goes out, then the input is silent for good.
    func finish() {
        guard !ended else { return }
        drainResampler()
        ended = true
    }

    // MARK: - The aggregator's side

    /// First output frame not on the timeline yet.
    var end: Int64 { timeline.withLock { $0.end } }

    /// Copies output frames [start, end) that are on the timeline into `scratch` (stereo, at
    /// `scratch + 2 · (first − start)`); returns the first frame copied, how many, and how many
    /// of them came from input data. Nil when none are there.
    func copy(from start: Int64, to end: Int64, into scratch: UnsafeMutablePointer<Float>)
        -> (first: Int64, frames: Int, present: Int)? {
        timeline.withLock { timeline in
            let first = max(start, timeline.start)
            var next = first, present = 0
            // Twice where the timeline's ring wraps.
            while next < end, let run = timeline.read(at: next, frames: Int(end - next)) {
                (scratch + 2 * Int(next - start)).update(from: run.samples, count: 2 * run.frames)
                present += run.present
                next += Int64(run.frames)
            }
            return next > first ? (first, Int(next - first), present) : nil
        }
    }

    func drop(before index: Int64) {
        timeline.withLock { $0.drop(before: index) }
    }

    private func ensureScratch(_ frames: Int) {
        let needed = max(frames, 8192)
        guard needed > scratchCapacity else { return }
        converted.deallocate()
        downmixed.deallocate()
        resampled.deallocate()
        stereo.deallocate()
        converted = .allocate(capacity: 3 * needed)
        downmixed = .allocate(capacity: 2 * needed)
        // 96 kHz down to 48 kHz halves the frames, 8 kHz up to 48 kHz multiplies them by six.
        resampled = .allocate(capacity: 2 * needed)
        stereo = .allocate(capacity: 2 * needed)
        scratchCapacity = needed
    }
}
