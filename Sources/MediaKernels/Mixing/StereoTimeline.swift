// SPDX-License-Identifier: LGPL-2.1-or-later
/// Stereo Float frames placed on the output timeline (absolute output frame indices),
/// knowing which frames came from input data and which were filled in as silence (a gap,
/// a late or absent input): appends come in runs of one kind, so that is kept as the list of
/// indices where the kind changes, not per frame. One per mixer input: the input writes at its end, the
/// mixer reads output ranges from its start. Memory is a ring, so appends and drops never
/// move what is stored (moving an input a second ahead of the mix back to the front would
/// copy 350 KB every couple of hundred buffers); a read returns the frames up to
/// where the ring wraps, and the caller reads again for the rest. It grows only when an
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
    /// Ring slot of frame `start`.
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

    /// Ring slot of frame `index` (within [start, end]).
    @inline(__always)
    private func slot(_ index: Int64) -> Int {
        let slot = offset + Int(index - firstFrame)
        return slot >= capacity ? slot - capacity : slot
    }

    /// Room for `frames` more at the end: grows when the ring is too small, unwrapping it.
    private func reserve(_ frames: Int) {
        guard frameCount + frames > capacity else { return }
        let newCapacity = max(2 * capacity, frameCount + frames)
        let newSamples = UnsafeMutablePointer<Float>.allocate(capacity: 2 * newCapacity)
        let head = min(frameCount, capacity - offset)
        newSamples.update(from: samples + 2 * offset, count: 2 * head)
        (newSamples + 2 * head).update(from: samples, count: 2 * (frameCount - head))
        samples.deallocate()
        samples = newSamples
        capacity = newCapacity
        offset = 0
    }

    /// Makes room for `n` frames at the end and hands `fill` the one or two ring segments
    /// they go to: (destination, frames, frames before it in this append).
    @inline(__always)
    private func write(_ n: Int, _ fill: (UnsafeMutablePointer<Float>, Int, Int) -> Void) {
        reserve(n)
        let at = slot(end)
        let first = min(n, capacity - at)
        fill(samples + 2 * at, first, 0)
        if first < n { fill(samples, n - first, first) }
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
        write(n) { destination, count, done in destination.update(from: frames + 2 * done, count: 2 * count) }
        mark(n, present: true)
    }

    /// Appends `frames` of silence standing for missing input.
    public func appendSilence(count n: Int) {
        guard n > 0 else { return }
        write(n) { destination, count, _ in destination.update(repeating: 0, count: 2 * count) }
        mark(n, present: false)
    }

    /// Frames [index, end) as a contiguous stereo run, at most `frames` of them and none past
    /// the ring's wrap, and how many of those came from input data; nil when `index` is
    /// outside the stored range.
    public func read(at index: Int64, frames: Int) -> (samples: UnsafePointer<Float>, frames: Int, present: Int)? {
        guard index >= firstFrame, index < end else { return nil }
        let first = slot(index)
        let n = min(frames, Int(end - index), capacity - first)
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
        offset = slot(firstFrame + Int64(n))
        frameCount -= n
        firstFrame += Int64(n)
        while firstRun + 1 < runs.count && runs[firstRun + 1].first <= firstFrame { firstRun += 1 }
        if frameCount == 0 {
            firstFrame = index
            runs.removeAll(keepingCapacity: true)
            firstRun = 0
        }
    }
}
