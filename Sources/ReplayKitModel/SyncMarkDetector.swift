// SPDX-License-Identifier: LGPL-2.1-or-later
/// Finds `SyncMarks` in decoded output and measures audio against video at each.
///
/// Feed it every decoded video frame (its time and mean luma, 0–255 full range) and every
/// decoded audio buffer (mono float) in stream order, then ask for the `report`.
/// - a flash starts at the first frame whose mean luma reaches `flashLuma` after one that
///   did not (a small PiP over the flash keeps the mean well above it);
/// - a click starts at the first sample of magnitude ≥ `clickLevel` within `riseSeconds`
///   of the end of at least `quietSeconds` of samples below `quietLevel` (the rise may pass
///   through the levels in between). The marks' 100 ms of silence stays below that after
///   mixing and AAC; programme audio is never that quiet that long and then loud at once.
/// Each flash is paired with the nearest click within half a mark period.
public struct SyncMarkDetector: Sendable {
    public struct Mark: Sendable, Equatable {
        /// Seconds, in the decoded streams' time.
        public var video: Double
        public var audio: Double
        /// Audio minus video, seconds: positive when sound comes late.
        public var offset: Double { audio - video }
    }

    public struct Report: Sendable, Equatable {
        public var marks: [Mark]
        public var unmatchedFlashes: [Double]
        public var unmatchedClicks: [Double]

        public var worstOffset: Double { marks.map(\.offset).max(by: { abs($0) < abs($1) }) ?? 0 }
        /// How far the offset moved from the first mark to the last, seconds.
        public var drift: Double { (marks.last?.offset ?? 0) - (marks.first?.offset ?? 0) }
    }

    public static let flashLuma = 200.0
    public static let clickLevel: Float = 0.15
    public static let quietLevel: Float = 0.03
    public static let quietSeconds = 0.05
    public static let riseSeconds = 0.005

    private var flashes: [Double] = []
    private var clicks: [Double] = []
    private var previousBright = false
    private var quietRun = 0.0
    /// The length of the last quiet stretch and how long ago it ended, seconds.
    private var lastQuiet = 0.0
    private var sinceQuiet = Double.infinity

    public init() {}

    public mutating func addVideoFrame(time: Double, meanLuma: Double) {
        let bright = meanLuma >= Self.flashLuma
        if bright && !previousBright { flashes.append(time) }
        previousBright = bright
    }

    /// `samples` start at `time` seconds; consecutive buffers continue the quiet run.
    public mutating func addAudio(time: Double, rate: Int, samples: UnsafeBufferPointer<Float>) {
        let step = 1 / Double(rate)
        for (index, sample) in samples.enumerated() {
            let magnitude = abs(sample)
            if magnitude < Self.quietLevel {
                quietRun += step
                continue
            }
            if quietRun > 0 {
                lastQuiet = quietRun
                sinceQuiet = 0
                quietRun = 0
            }
            if magnitude >= Self.clickLevel, lastQuiet >= Self.quietSeconds, sinceQuiet <= Self.riseSeconds {
                clicks.append(time + Double(index) * step)
                lastQuiet = 0
            }
            sinceQuiet += step
        }
    }

    public func report() -> Report {
        let window = Double(SyncMarks.period) / 2e9
        var marks: [Mark] = []
        var unmatched: [Double] = []
        var used = Set<Int>()
        for flash in flashes {
            let nearest = clicks.indices.filter { !used.contains($0) && abs(clicks[$0] - flash) < window }
                .min { abs(clicks[$0] - flash) < abs(clicks[$1] - flash) }
            if let nearest {
                used.insert(nearest)
                marks.append(Mark(video: flash, audio: clicks[nearest]))
            } else {
                unmatched.append(flash)
            }
        }
        let lonelyClicks = clicks.indices.filter { !used.contains($0) }.map { clicks[$0] }
        return Report(marks: marks, unmatchedFlashes: unmatched, unmatchedClicks: lonelyClicks)
    }
}
