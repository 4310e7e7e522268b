// SPDX-License-Identifier: LGPL-2.1-or-later
/// The resampler's filtering loops. This file is compiled twice: into MediaKernels for
/// baseline x86-64 (SSE) and, through a symbolic link, into MediaKernelsAVX2 with
/// `-target-cpu haswell` (8-wide vectors, fused multiply-add); `Resampler` picks one at init
/// by what the CPU has. One source, so the two cannot drift apart.
#if !KERNELS_FMA
import MediaKernelsAVX2
#endif

package enum ResamplerLoops {
    /// Filters with exact polyphase rows (rational ratios with a small denominator). Mono
    /// goes eight outputs at a time and stereo four frames, so that one transposed reduction
    /// (`ResamplerDotProducts.sums`) finishes eight dot products and one store writes them.
    package static func filterExact(_ run: inout ResamplerRun, into output: UnsafeMutablePointer<Float>, frames: Int) {
        if run.taps == 64 {
            filterExact(&run, SixtyFourTaps(), output, frames)
        } else {
            filterExact(&run, RunTaps(count: run.taps), output, frames)
        }
    }

    @inline(__always)
    private static func filterExact<T: TapCount>(
        _ run: inout ResamplerRun, _ taps: T, _ output: UnsafeMutablePointer<Float>, _ frames: Int
    ) {
        let channels = run.channels, planeCapacity = run.planeCapacity
        var frame = run.frame, phase = run.phase
        var k = 0
        // Outputs whose filter window ends before the silence kept ahead of input frame 0.
        while k < frames && frame &+ run.lookahead < 0 {
            (output + k &* channels).update(repeating: 0, count: channels)
            run.advance(&frame, &phase)
            k &+= 1
        }
        /// The next output's input window and row.
        @inline(__always)
        func next() -> (input: UnsafePointer<Float>, row: UnsafePointer<Float>) {
            let window = (run.history + (frame &+ run.slotOffset), run.coefficients + phase &* taps.count)
            run.advance(&frame, &phase)
            return window
        }
        @inline(__always)
        func mono() -> SIMD8<Float> {
            let (input, row) = next()
            return ResamplerDotProducts.lanes(input, row, taps)
        }
        @inline(__always)
        func stereo() -> (SIMD8<Float>, SIMD8<Float>) {
            let (input, row) = next()
            return ResamplerDotProducts.lanesStereo(input, input + planeCapacity, row, taps)
        }
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 8) { buffer in
            let lanes = buffer.baseAddress!
            if channels == 1 {
                while frames &- k >= 8 {
                    for i in 0..<8 { lanes[i] = mono() }
                    ResamplerDotProducts.sums(lanes, into: output + k)
                    k &+= 8
                }
            } else if channels == 2 {
                while frames &- k >= 4 {
                    for i in 0..<4 { (lanes[2 &* i], lanes[2 &* i &+ 1]) = stereo() }
                    ResamplerDotProducts.sums(lanes, into: output + 2 &* k)
                    k &+= 4
                }
            }
        }
        // The rest one output at a time (one channel at a time beyond stereo).
        while k < frames {
            let (input, row) = next()
            for c in 0..<channels {
                let lanes = ResamplerDotProducts.lanes(input + c &* planeCapacity, row, taps)
                output[k &* channels &+ c] = ResamplerDotProducts.horizontalSum(lanes)
            }
            k &+= 1
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
