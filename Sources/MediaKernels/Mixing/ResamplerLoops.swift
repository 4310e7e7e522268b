/// The resampler's filtering loops. This file is compiled twice: into MediaKernels for
/// baseline x86-64 (SSE) and, through a symbolic link, into MediaKernelsAVX2 with
/// `-target-cpu haswell` (8-wide vectors, fused multiply-add); `Resampler` picks one at init
/// by what the CPU has. One source, so the two cannot drift apart.
#if !KERNELS_FMA
import MediaKernelsAVX2
#endif

package enum ResamplerLoops {
    /// Filters with exact polyphase rows (rational ratios with a small denominator).
    package static func filterExact(_ run: inout ResamplerRun, into output: UnsafeMutablePointer<Float>, frames: Int) {
        let taps = run.taps, channels = run.channels, planeCapacity = run.planeCapacity
        var frame = run.frame, phase = run.phase
        for k in 0..<frames {
            let out = output + k &* channels
            if frame &+ run.lookahead < 0 {
                out.update(repeating: 0, count: channels)
            } else {
                let row = run.coefficients + phase &* taps
                let input = run.history + (frame &+ run.slotOffset)
                if channels == 2 {
                    (out[0], out[1]) = ResamplerDotProducts.dotStereo(input, input + planeCapacity, row, taps: taps)
                } else {
                    for c in 0..<channels {
                        out[c] = ResamplerDotProducts.dot(input + c &* planeCapacity, row, taps: taps)
                    }
                }
            }
            run.advance(&frame, &phase)
        }
        run.frame = frame
        run.phase = phase
    }

    /// Filters with a row interpolated between the two nearest of `rows` tabulated phases
    /// (ratios whose exact table would be too large).
    package static func filterInterpolated(_ run: inout ResamplerRun, rows: Int, into output: UnsafeMutablePointer<Float>,
                                           frames: Int) {
        let taps = run.taps, channels = run.channels, planeCapacity = run.planeCapacity
        let rowFraction = 1 / Float(run.phaseCount)
        var frame = run.frame, phase = run.phase
        for k in 0..<frames {
            let out = output + k &* channels
            if frame &+ run.lookahead < 0 {
                out.update(repeating: 0, count: channels)
            } else {
                let scaled = phase &* rows
                let index = scaled / run.phaseCount
                let weight = Float(scaled &- index &* run.phaseCount) * rowFraction
                let row0 = run.coefficients + index &* taps
                let row1 = row0 + taps
                let input = run.history + (frame &+ run.slotOffset)
                for c in 0..<channels {
                    let (a, b) = ResamplerDotProducts.dot2(input + c &* planeCapacity, row0, row1, taps: taps)
                    out[c] = a + weight * (b - a)
                }
            }
            run.advance(&frame, &phase)
        }
        run.frame = frame
        run.phase = phase
    }
}
