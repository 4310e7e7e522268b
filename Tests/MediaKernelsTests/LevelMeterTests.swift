// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct LevelMeterTests {
    @Test func frameDurationsRoundLikeGStreamer() {
        let meter = LevelMeter(format: .s16le, rate: 44100, roles: [.front],
                               settings: .init(intervalFrames: 4410, peakTTLNanoseconds: 0, peakFalloff: 0, loudness: false))
        #expect(meter.framesToNanoseconds(1) == 22676)
        #expect(meter.framesToNanoseconds(4410) == 100_000_000)
        // 2^40 · 1e9 / 44100 = 24932236457505668.6…, beyond Int64 before the division.
        #expect(meter.framesToNanoseconds(1 << 40) == 24_932_236_457_505_669)
    }

    @Test func intervalsAreExactInSamples() {
        let meter = LevelMeter(format: .s16le, rate: 8000, roles: [.front],
                               settings: .init(intervalFrames: 800, peakTTLNanoseconds: 0, peakFalloff: 0, loudness: false))
        let samples = [Int16](repeating: 16384, count: 2000)
        var reports: [(Int64, Int, Double)] = []
        samples.withUnsafeBytes { raw in
            for chunk in stride(from: 0, to: 2000, by: 333) {
                let count = min(333, 2000 - chunk)
                meter.process(raw.baseAddress! + chunk * 2, frames: count) { reports.append(($0.startFrame, $0.frames, $0.rms[0])) }
            }
        }
        meter.flush { reports.append(($0.startFrame, $0.frames, $0.rms[0])) }
        #expect(reports.map(\.0) == [0, 800, 1600])
        #expect(reports.map(\.1) == [800, 800, 400])
        for report in reports { #expect(abs(report.2 - -6.0206) < 1e-4) }
    }
}
