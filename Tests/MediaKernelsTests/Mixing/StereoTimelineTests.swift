// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct StereoTimelineTests {
    /// Everything stored, read back run by run (a run ends where the ring wraps).
    static func contents(_ timeline: StereoTimeline) -> [Float] {
        var stored: [Float] = []
        var index = timeline.start
        while let run = timeline.read(at: index, frames: timeline.count) {
            stored += UnsafeBufferPointer(start: run.samples, count: 2 * run.frames)
            index += Int64(run.frames)
        }
        return stored
    }

    @Test func keepsFramesOnAbsoluteIndicesThroughWrapsAndGrowth() {
        let timeline = StereoTimeline(capacity: 1024)
        timeline.reset(at: 500)
        var written: [Float] = []
        var next: Float = 0
        for round in 0..<40 {
            let n = 97 + round * 13
            var chunk = [Float](repeating: 0, count: 2 * n)
            for k in 0..<(2 * n) { chunk[k] = next; next += 1 }
            if round % 5 == 4 {
                timeline.appendSilence(count: n)
                written += [Float](repeating: 0, count: 2 * n)
            } else {
                chunk.withUnsafeBufferPointer { timeline.append($0.baseAddress!, count: n) }
                written += chunk
            }
            timeline.drop(before: timeline.start + Int64(n / 2))
            #expect(Self.contents(timeline) == Array(written.suffix(2 * timeline.count)), "round \(round)")
        }
        let base = 500 + (written.count / 2 - timeline.count)
        #expect(timeline.start == Int64(base))
    }

    /// Appends and drops move nothing: a read stops where the ring wraps, and the next read
    /// carries on from the ring's first slot.
    @Test func readsStopWhereTheRingWraps() {
        let timeline = StereoTimeline(capacity: 1024)
        timeline.reset(at: 0)
        // Frame i holds (i, −i).
        func append(_ range: Range<Int>) {
            let frames = range.flatMap { [Float($0), -Float($0)] }
            frames.withUnsafeBufferPointer { timeline.append($0.baseAddress!, count: range.count) }
        }
        append(0..<700)
        timeline.drop(before: 600)
        append(700..<1500)
        let first = timeline.read(at: 650, frames: 500)!
        #expect(first.frames == 1024 - 650)
        let second = timeline.read(at: 1024, frames: 126)!
        #expect(second.frames == 126)
        #expect(second.samples == first.samples - 2 * 650, "the second run starts at the ring's first slot")
        let values = Array(UnsafeBufferPointer(start: first.samples, count: 2 * first.frames))
            + Array(UnsafeBufferPointer(start: second.samples, count: 2 * second.frames))
        #expect(values == (650..<1150).flatMap { [Float($0), -Float($0)] })
    }

    @Test func countsPresentFrames() {
        let timeline = StereoTimeline(capacity: 1024)
        timeline.reset(at: 0)
        let ones = [Float](repeating: 1, count: 200)
        timeline.appendSilence(count: 50)
        ones.withUnsafeBufferPointer { timeline.append($0.baseAddress!, count: 100) }
        let read = timeline.read(at: 25, frames: 100)!
        #expect(read.frames == 100)
        #expect(read.present == 75)
        #expect(timeline.read(at: 150, frames: 10) == nil)
        #expect(timeline.read(at: -1, frames: 10) == nil)
        timeline.drop(before: 1000)
        #expect(timeline.count == 0 && timeline.start == 1000)
    }
}
