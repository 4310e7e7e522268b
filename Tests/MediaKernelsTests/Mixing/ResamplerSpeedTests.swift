import Foundation
@testable import MediaKernels
import Testing

/// Prints ns per output frame; asserts nothing about time. Runs only with
/// REPLAYCAST_BENCH=1 (use a release build: `swift test -c release --filter ResamplerSpeed`).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["REPLAYCAST_BENCH"] == "1"))
struct ResamplerSpeedTests {
    @Test(arguments: [(44100, 1), (44100, 2), (32000, 1), (24000, 1), (96000, 2), (48000, 2), (44101, 2)])
    func nanosecondsPerOutputFrame(inputRate: Int, channels: Int) {
        let seconds = 10
        let input = ResamplerTestSupport.noise(count: inputRate * seconds * channels)
        var output = [Float](repeating: 0, count: 48000 * (seconds + 1) * channels)
        let setup = DispatchTime.now().uptimeNanoseconds
        let resampler = Resampler(inputRate: inputRate, outputRate: 48000, channels: channels)
        let setupMicroseconds = Double(DispatchTime.now().uptimeNanoseconds - setup) / 1000
        var best = Double.infinity
        for _ in 0..<5 {
            resampler.reset(firstOutputAtInputFrame: 0)
            var produced = 0
            let start = DispatchTime.now().uptimeNanoseconds
            input.withUnsafeBufferPointer { inp in
                output.withUnsafeMutableBufferPointer { out in
                    var done = 0
                    let frames = inp.count / channels
                    while done < frames {
                        let n = min(1024, frames - done)
                        var taken = 0
                        while taken < n {
                            taken += resampler.write(inp.baseAddress! + (done + taken) * channels, count: n - taken)
                            produced += resampler.read(into: out.baseAddress! + produced * channels, count: out.count / channels - produced)
                        }
                        done += n
                    }
                }
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed / Double(produced))
        }
        print("resampler \(inputRate)->48000 \(channels)ch: \(String(format: "%.1f", best)) ns per output frame (best of 5), init \(String(format: "%.0f", setupMicroseconds)) µs")
    }
}
