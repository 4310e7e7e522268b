// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import MediaKernels
import ResamplerMeasurement
import Testing

/// The filtering loops exist twice (baseline x86-64 and AVX2 + FMA, one source compiled
/// twice): on a machine that runs the AVX2 copy, both must give the same output but for
/// the rounding that fused multiply-adds change.
@Suite(.enabled(if: KernelLoops.cpuHasAVX2, "the CPU has no AVX2 + FMA: only the baseline loops run here"))
struct ResamplerLoopsTests {
    /// 44.1k and 32k use exact polyphase rows, 44 056 Hz interpolated rows.
    @Test(arguments: [(44100, 1), (44100, 2), (32000, 1), (24000, 2), (44056, 2), (96000, 2)])
    func avx2AndBaselineLoopsAgree(rates: (Int, Int)) {
        let (inputRate, channels) = rates
        let input = ResamplerTestSupport.noise(count: inputRate / 2 * channels).map { $0 * 0.9 }
        let fast = ResamplerTestSupport.run(Resampler(inputRate: inputRate, outputRate: 48000, channels: channels), input,
                                            chunks: [1024, 955, 69])
        let baseline = ResamplerTestSupport.run(
            Resampler(inputRate: inputRate, outputRate: 48000, channels: channels, loops: .baseline), input,
            chunks: [1024, 955, 69])
        #expect(fast.count == baseline.count)
        #expect(fast.count == 24000 * channels, "half a second at 48 kHz: \(fast.count / channels) frames")
        let worst = zip(fast, baseline).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 2e-6, "largest difference \(worst) over \(fast.count) samples")
        #expect(fast != baseline, "both copies ran: fused multiply-adds round differently somewhere")
    }
}
