import Foundation
@testable import MediaKernels
import Testing

/// Prints ns per sample of the small mixing kernels; asserts nothing about time. Runs only
/// with REPLAYCAST_BENCH=1 (use a release build).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["REPLAYCAST_BENCH"] == "1"))
struct MixingKernelSpeedTests {
    static let samples = 1 << 20

    static func time(_ label: String, _ body: () -> Void) {
        var best = Double.infinity
        for _ in 0..<7 {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        print(String(format: "%@: %.3f ns per sample (best of 7)", label, best / Double(samples)))
    }

    @Test func kernels() {
        let floats = ResamplerTestSupport.noise(count: Self.samples).map { $0 * 1.5 }
        var raw = [UInt8](repeating: 0, count: Self.samples * 4)
        var out = [Float](repeating: 0, count: Self.samples * 2)
        floats.withUnsafeBufferPointer { f in
            raw.withUnsafeMutableBytes { r in
                out.withUnsafeMutableBufferPointer { o in
                    Self.time("Float -> S16LE") { PCMConversion.toS16LE(f.baseAddress!, samples: Self.samples, into: r.baseAddress!) }
                    for format in [SampleFormat.s16le, .s16be, .f32le] {
                        Self.time("\(format) -> Float") {
                            PCMConversion.toFloat(r.baseAddress!, format: format, samples: Self.samples, into: o.baseAddress!)
                        }
                    }
                    let limiter = SoftLimiter()
                    Self.time("SoftLimiter (1/3 of samples over)") {
                        o.baseAddress!.update(from: f.baseAddress!, count: Self.samples)
                        limiter.process(o.baseAddress!, count: Self.samples)
                    }
                    for channels in 1...3 {
                        let frames = Self.samples / channels
                        Self.time("ChannelMapping.mix \(channels)ch (per input sample)") {
                            ChannelMapping(inputChannels: channels).mix(f.baseAddress!, frames: frames, gain: 0.8, into: o.baseAddress!)
                        }
                    }
                }
            }
        }
    }
}
