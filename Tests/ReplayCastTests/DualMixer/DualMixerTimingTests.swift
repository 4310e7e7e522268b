// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// Mixing by running time: exact output timing, no drift, alignment across rates and buffering.
@Suite struct DualMixerTimingTests {
    @Test func outputBuffersSitOnAnExactTenMillisecondGrid() throws {
        let inputs = "audiotestsrc num-buffers=300 samplesperbuffer=1000 ! audio/x-raw,rate=44100,channels=2 ! m.app "
            + "audiotestsrc num-buffers=300 samplesperbuffer=777 ! audio/x-raw,rate=32000,channels=1 ! m.mic"
        let capture = try MixerCapture.capture(inputs)
        let buffers = capture.output.buffers
        #expect(buffers.count > 500)
        for (n, buffer) in buffers.dropLast().enumerated() {
            #expect(buffer.pts == UInt64(n) * 10_000_000, "buffer \(n)")
            #expect(buffer.duration == 10_000_000)
            #expect(buffer.size == 480 * 2 * 4)
        }
    }

    /// 60 s of 44.1 kHz and 32 kHz input, in odd buffer sizes: 60 s of output, no drift.
    @Test func sixtySecondsInGiveSixtySecondsOut() throws {
        let inputs = "audiotestsrc num-buffers=2646 samplesperbuffer=1000 ! audio/x-raw,rate=44100,channels=1 ! m.app "
            + "audiotestsrc num-buffers=2474 samplesperbuffer=776 ! audio/x-raw,rate=32000,channels=1 ! m.mic"
        let capture = try MixerCapture.capture(inputs, timeout: 120)
        #expect(capture.run.reachedEOS)
        // The app input lasts 2,646,000 / 44,100 = 60.000 s; the mic 1,919,824 / 32,000 = 59.99 s.
        #expect(abs(capture.frames - 60 * 48000) <= 480, "\(capture.frames) frames")
        let last = try #require(capture.output.buffers.last)
        #expect(abs(Int64(last.pts + last.duration) - 60_000_000_000) <= 10_000_000)
    }

    /// An impulse at t = 1.000 s on either input lands on output frame 48,000 (±1), whatever
    /// the rates and the buffer sizes.
    @Test(arguments: [(44100, 32000), (48000, 24000), (32000, 44100), (24000, 96000), (8000, 48000)])
    func impulsesLandOnTheSameOutputSample(appRate: Int, micRate: Int) throws {
        let directory = try temporaryDirectory("impulse")
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, rate: Int, impulse: Bool) throws -> String {
            var samples = [Int16](repeating: 0, count: rate * 3 / 2)
            if impulse { samples[rate] = 16384 }
            let url = directory.appendingPathComponent("\(name)-\(rate)-\(impulse).raw")
            try samples.withUnsafeBytes { try Data($0).write(to: url) }
            return url.path
        }
        for (appBlock, micBlock) in [(2048, 2048), (45192, 1910), (138, 4000)] {
            for impulseOnApp in [true, false] {
                let app = try file("app", rate: appRate, impulse: impulseOnApp)
                let mic = try file("mic", rate: micRate, impulse: !impulseOnApp)
                let inputs = "filesrc location=\(app) blocksize=\(appBlock) ! queue ! rawaudioparse format=pcm pcm-format=s16le "
                    + "sample-rate=\(appRate) num-channels=1 ! m.app filesrc location=\(mic) blocksize=\(micBlock) ! queue ! "
                    + "rawaudioparse format=pcm pcm-format=s16le sample-rate=\(micRate) num-channels=1 ! m.mic"
                let capture = try MixerCapture.capture(inputs)
                let left = stride(from: 0, to: capture.samples.count, by: 2).map { abs(capture.samples[$0]) }
                let peak = left.indices.max { left[$0] < left[$1] } ?? -1
                #expect(abs(peak - 48000) <= 1, "\(impulseOnApp ? "app" : "mic") impulse at \(peak), blocks \(appBlock)/\(micBlock)")
            }
        }
    }
}
