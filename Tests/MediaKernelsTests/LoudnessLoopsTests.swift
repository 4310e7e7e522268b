// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import MediaKernels
import Testing

/// The loudness loops read interleaved samples of any channel count, in two compiled copies
/// (baseline x86-64 and AVX2 + FMA).
@Suite struct LoudnessLoopsTests {
    static func noise(frames: Int, channels: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<(frames * channels)).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let uniform = Float(state >> 40) / Float(1 << 24) * 2 - 1
            return uniform * Float(i % channels + 1) / Float(channels + 1)
        }
    }

    /// Per channel, the largest magnitude among the samples and every interpolated phase,
    /// evaluated directly in double precision with silence before the start.
    static func directTruePeaks(_ x: [Float], channels: Int, factor: Int) -> [Double] {
        let phases = TruePeakInterpolator.phases(factor: factor)
        let frames = x.count / channels
        var peaks = [Double](repeating: 0, count: channels)
        for c in 0..<channels {
            for n in 0..<frames {
                peaks[c] = max(peaks[c], abs(Double(x[n * channels + c])))
                for phase in phases {
                    var sum = 0.0
                    for (m, h) in phase.enumerated() where n - m >= 0 { sum += Double(h) * Double(x[(n - m) * channels + c]) }
                    peaks[c] = max(peaks[c], abs(sum))
                }
            }
        }
        return peaks
    }

    /// Lanes land on their channels whatever the count (period 1 for 1, 2 and 8 channels,
    /// 3 for 3 and 6, 5 for 5), calls of odd sizes add up to one pass, and the samples after
    /// a call's frames (here 100.0) are never taken for a peak.
    @Test(arguments: [1, 2, 3, 5, 6, 8], [KernelLoops.fastest, .baseline])
    func truePeaksMatchADirectEvaluation(channels: Int, loops: KernelLoops) {
        let history = (TruePeakInterpolator.spanSamples - 1) * channels
        let chunks = [7, 480, 13, 1, 99]
        var signal = Self.noise(frames: chunks.reduce(0, +), channels: channels, seed: UInt64(channels))
        signal[(300 * channels) + channels - 1] = 0.97
        let interpolator = TruePeakInterpolator(rate: 48000, channels: channels, loops: loops)
        var peaks = [Double](repeating: 0, count: channels)
        var frame = 0
        for frames in chunks {
            var buffer = [Float](repeating: 0, count: history)
            let start = max(0, frame - TruePeakInterpolator.spanSamples + 1)
            buffer.replaceSubrange((history - (frame - start) * channels)..., with: signal[(start * channels)..<(frame * channels)])
            buffer += signal[(frame * channels)..<((frame + frames) * channels)]
            buffer += [Float](repeating: 100, count: TruePeakInterpolator.paddingSamples)
            buffer.withUnsafeBufferPointer { interpolator.fold($0.baseAddress! + history, frames: frames, into: &peaks) }
            frame += frames
        }
        let expected = Self.directTruePeaks(signal, channels: channels, factor: 4)
        #expect(peaks.count == channels && expected.count == channels)
        for c in 0..<channels {
            #expect(abs(peaks[c] - expected[c]) <= 1e-6 * expected[c], "channel \(c): \(peaks[c]) against \(expected[c])")
        }
        #expect(peaks[channels - 1] >= 0.97, "the spike on the last channel: \(peaks[channels - 1])")
    }

    /// Both compiled copies measure the same loudness and true peaks but for the rounding
    /// that fused multiply-adds change (channel counts with and without an empty lane).
    @Test(.enabled(if: KernelLoops.cpuHasAVX2, "the CPU has no AVX2 + FMA: only the baseline loops run here"),
          arguments: [1, 2, 3, 6])
    func avx2AndBaselineLoopsAgree(channels: Int) {
        let signal = Self.noise(frames: 48000 * 5, channels: channels, seed: 7)
        let roles = [KWeighting.ChannelRole](repeating: .front, count: channels)
        func measure(_ loops: KernelLoops) -> [Double] {
            let meter = LoudnessMeter(format: .f32le, rate: 48000, roles: roles, loops: loops)
            var readings: [Double] = []
            for part in stride(from: 0, to: signal.count, by: 4410 * channels) {
                let end = min(part + 4410 * channels, signal.count)
                signal[part..<end].withUnsafeBytes { meter.process($0.baseAddress!, frames: (end - part) / channels) }
                readings += [meter.momentary, meter.shortTerm] + (0..<channels).map { meter.truePeak(channel: $0) }
            }
            return readings + [meter.integrated, meter.loudnessRange]
        }
        let fast = measure(.fastest), baseline = measure(.baseline)
        #expect(fast.count == baseline.count)
        #expect(fast.count == 55 * (2 + channels) + 2, "\(fast.count) readings")
        let worst = zip(fast, baseline).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-6, "largest difference \(worst) over \(fast.count) readings")
        #expect(fast != baseline, "both copies ran: fused multiply-adds round differently somewhere")
    }
}
