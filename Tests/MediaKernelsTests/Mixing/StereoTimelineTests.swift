import MediaKernels
import Testing

@Suite struct StereoTimelineTests {
    @Test func keepsFramesOnAbsoluteIndicesThroughCompactionAndGrowth() {
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
        }
        let base = 500 + (written.count / 2 - timeline.count)
        #expect(timeline.start == Int64(base))
        let read = timeline.read(at: timeline.start, frames: timeline.count)!
        #expect(read.frames == timeline.count)
        let stored = Array(UnsafeBufferPointer(start: read.samples, count: 2 * read.frames))
        #expect(stored == Array(written.suffix(2 * timeline.count)))
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
