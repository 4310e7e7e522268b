// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels

/// Signals and a chunked driver shared by the resampler tests and bench/ResamplerQualityReport.
public enum ResamplerTestSupport {
    /// Interleaved sine, computed in Double and rounded once to Float.
    public static func sine(frequency: Double, rate: Int, frames: Int, amplitude: Double = 0.5, channels: Int = 1) -> [Float] {
        var out = [Float](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            let value = Float(amplitude * sin(2 * Double.pi * frequency * Double(n) / Double(rate)))
            for c in 0..<channels { out[n * channels + c] = value }
        }
        return out
    }

    /// Deterministic noise in [-1, 1).
    public static func noise(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int32(truncatingIfNeeded: state >> 32)) / 2_147_483_648
        }
    }

    /// Feeds `input` in chunks cycling through `chunks` (frames), reading after every write,
    /// then (if `flush`) writes the lookahead as silence so every output the input defines
    /// comes out. Returns the interleaved output.
    public static func run(
        _ resampler: Resampler, _ input: [Float], chunks: [Int] = [1024], flush: Bool = true
    ) -> [Float] {
        let channels = resampler.channels
        var output: [Float] = []
        var scratch = [Float](repeating: 0, count: 4096 * channels)
        func drain() {
            scratch.withUnsafeMutableBufferPointer { buffer in
                while true {
                    let got = resampler.read(into: buffer.baseAddress!, count: 4096)
                    output.append(contentsOf: buffer[0..<(got * channels)])
                    if got < 4096 { break }
                }
            }
        }
        input.withUnsafeBufferPointer { all in
            let frames = all.count / channels
            var done = 0, chunk = 0
            while done < frames {
                let want = min(chunks[chunk % chunks.count], frames - done)
                chunk += 1
                var taken = 0
                while taken < want {
                    taken += resampler.write(all.baseAddress! + (done + taken) * channels, count: want - taken)
                    drain()
                }
                done += want
            }
        }
        if flush {
            var silence = resampler.lookaheadInputFrames
            while silence > 0 {
                silence -= resampler.writeSilence(count: silence)
                drain()
            }
        }
        drain()
        return output
    }
}
