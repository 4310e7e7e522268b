/// Stereo Float frames placed on the output timeline (absolute output frame indices),
/// knowing which frames came from input data and which were filled in as silence (a gap,
/// a late or absent input): appends come in runs of one kind, so that is kept as the list of
/// indices where the kind changes, not per frame. One per mixer input: the input writes at its end, the
/// mixer reads output ranges from its start. Memory is a linear buffer compacted when the
/// read position passes half of it, so reads are always contiguous; it grows only when an
/// input runs further ahead than ever before. Not synchronised: users that share one
/// between threads keep it behind a lock (so it may live in a `Mutex`).
public final class StereoTimeline: @unchecked Sendable {
    // Used by one thread at a time (its users lock around it); dynamic exclusivity checks,
    // about ten per output buffer and input, cost more than the bookkeeping they guard.
    // Read from other modules through getters: there, a stored property is accessed in
    // place, checked again.
    public var start: Int64 { firstFrame }
    public var count: Int { frameCount }
    public var end: Int64 { firstFrame + Int64(frameCount) }

    @exclusivity(unchecked) private var firstFrame: Int64 = 0
    @exclusivity(unchecked) private var frameCount = 0

    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var offset = 0
    @exclusivity(unchecked) private var samples: UnsafeMutablePointer<Float>
    /// Runs of one kind: (first frame, from input data), in order, covering [start, end);
    /// entries before `firstRun` are stale. Capacity is reserved, so appends do not allocate.
    @exclusivity(unchecked) private var runs: [(first: Int64, present: Bool)] = []
    @exclusivity(unchecked) private var firstRun = 0

    public init(capacity: Int) {
        self.capacity = max(capacity, 1024)
        samples = .allocate(capacity: 2 * self.capacity)
        runs.reserveCapacity(256)
    }

    deinit {
        samples.deallocate()
    }

    /// Empties the timeline; the next frame appended goes to `index`.
    public func reset(at index: Int64) {
        firstFrame = index
        frameCount = 0
        offset = 0
        runs.removeAll(keepingCapacity: true)
        firstRun = 0
    }

    /// Room for `frames` more at the end: compacts, and grows as a last resort.
    private func reserve(_ frames: Int) {
        if offset + frameCount + frames <= capacity { return }
        if frameCount + frames <= capacity {
            samples.update(from: samples + 2 * offset, count: 2 * frameCount)
            offset = 0
            return
        }
        let newCapacity = max(2 * capacity, frameCount + frames)
        let newSamples = UnsafeMutablePointer<Float>.allocate(capacity: 2 * newCapacity)
        newSamples.update(from: samples + 2 * offset, count: 2 * frameCount)
        samples.deallocate()
        samples = newSamples
        capacity = newCapacity
        offset = 0
    }

    private func mark(_ n: Int, present: Bool) {
        if firstRun == runs.count || runs[runs.count - 1].present != present {
            if firstRun > 0 && runs.count == runs.capacity {
                runs.removeFirst(firstRun)
                firstRun = 0
            }
            runs.append((end, present))
        }
        frameCount += n
    }

    /// Appends `frames` stereo frames of input data.
    public func append(_ frames: UnsafePointer<Float>, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (samples + 2 * (offset + frameCount)).update(from: frames, count: 2 * n)
        mark(n, present: true)
    }

    /// Appends `frames` of silence standing for missing input.
    public func appendSilence(count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (samples + 2 * (offset + frameCount)).update(repeating: 0, count: 2 * n)
        mark(n, present: false)
    }

    /// Frames [index, end) as a contiguous stereo run, at most `frames` of them, and how many
    /// of those came from input data; nil when `index` is outside the stored range.
    public func read(at index: Int64, frames: Int) -> (samples: UnsafePointer<Float>, frames: Int, present: Int)? {
        guard index >= firstFrame, index < end else { return nil }
        let first = offset + Int(index - firstFrame)
        let n = min(frames, Int(end - index))
        let last = index + Int64(n)
        var present: Int64 = 0
        for r in firstRun..<runs.count where runs[r].present {
            let runEnd = r + 1 < runs.count ? runs[r + 1].first : end
            present += max(0, min(runEnd, last) - max(runs[r].first, index))
        }
        return (UnsafePointer(samples + 2 * first), n, Int(present))
    }

    /// Forgets the frames before `index`.
    public func drop(before index: Int64) {
        guard index > firstFrame else { return }
        let n = min(frameCount, Int(index - firstFrame))
        offset += n
        frameCount -= n
        firstFrame += Int64(n)
        while firstRun + 1 < runs.count && runs[firstRun + 1].first <= firstFrame { firstRun += 1 }
        if frameCount == 0 {
            offset = 0
            firstFrame = index
            runs.removeAll(keepingCapacity: true)
            firstRun = 0
        }
    }
}
