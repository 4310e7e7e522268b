// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import MediaKernels
import ResamplerMeasurement
import Testing

/// Exact behaviour: where samples land, how many come out, and that nothing depends on how
/// the input is cut into writes.
@Suite struct ResamplerTimingTests {
    typealias Support = ResamplerTestSupport

    /// Odd sizes seen from ReplayKit (1024 split as 955 + 69, 22 596-frame app bursts) and
    /// a few worse ones.
    static let oddChunks = [955, 69, 1, 1023, 22596, 4097, 333, 7]

    @Test(arguments: [0, 7, -5], 1...3)
    func equalRatesCopyBitExactly(start: Int, channels: Int) {
        let frames = 10_000
        let input = Support.noise(count: frames * channels)
        let resampler = Resampler(inputRate: 48000, outputRate: 48000, channels: channels)
        #expect(resampler.isPassthrough && resampler.lookaheadInputFrames == 0)
        resampler.reset(firstOutputAtInputFrame: Double(start))
        let output = Support.run(resampler, input, chunks: Self.oddChunks)
        #expect(output.count == (frames - start) * channels)
        for k in 0..<(output.count / channels) {
            for c in 0..<channels {
                let source = k + start
                let expected: Float = source < 0 ? 0 : input[source * channels + c]
                if output[k * channels + c].bitPattern != expected.bitPattern {
                    Issue.record("frame \(k) channel \(c): \(output[k * channels + c]) != \(expected)")
                    return
                }
            }
        }
    }

    static let ratePairs = [
        (44100, 48000), (32000, 48000), (24000, 48000), (8000, 48000), (22050, 48000),
        (96000, 48000), (88200, 48000), (48000, 44100), (44101, 48000),
    ]

    /// The filter is centred: an impulse at input frame n peaks at the output frame whose
    /// position is nearest n, i.e. within half an output frame of (n − p0)·out/in.
    @Test(arguments: ratePairs)
    func impulsePeaksAtItsInputPosition(inputRate: Int, outputRate: Int) {
        for start in [0.0, 0.37, -12.5, 40.25] {
            let resampler = Resampler(inputRate: inputRate, outputRate: outputRate, channels: 1)
            resampler.reset(firstOutputAtInputFrame: start)
            let p0 = resampler.nextOutputInputPosition
            #expect(abs(p0 - start) <= 0.5 / Double(resampler.phaseCount) + 1e-12)
            let impulseAt = 700
            var input = [Float](repeating: 0, count: 1400)
            input[impulseAt] = 1
            let output = Support.run(resampler, input, chunks: [333])
            let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
            let expected = (Double(impulseAt) - p0) * Double(outputRate) / Double(inputRate)
            #expect(abs(Double(peak) - expected) <= 0.5 + 1e-3, "\(inputRate)->\(outputRate) p0 \(start): peak \(peak), expected \(expected)")
        }
    }

    /// The sharper timing check: a sine comes out with the phase of its value at the output
    /// positions, i.e. the filter adds no delay at all (to a ten-thousandth of a frame).
    @Test(arguments: ratePairs)
    func sineKeepsItsPhase(inputRate: Int, outputRate: Int) {
        for start in [0.0, 0.37, -12.5, 40.25] {
            let resampler = Resampler(inputRate: inputRate, outputRate: outputRate, channels: 1)
            resampler.reset(firstOutputAtInputFrame: start)
            let p0 = resampler.nextOutputInputPosition
            let frequency = 997.0
            let output = Support.run(resampler, Support.sine(frequency: frequency, rate: inputRate, frames: inputRate / 20))
            let settled = Array(output[400..<(output.count - 400)])
            let fit = SineFit(settled, frequency: frequency, sampleRate: Double(outputRate))
            // Output frame 400 sits at input position p0 + 400·in/out.
            let position = p0 + 400 * Double(inputRate) / Double(outputRate)
            let expected = 2 * Double.pi * frequency * position / Double(inputRate)
            var error = remainder(fit.phase - expected, 2 * Double.pi)
            error *= Double(inputRate) / (2 * Double.pi * frequency)
            #expect(abs(error) < 1e-4, "\(inputRate)->\(outputRate) p0 \(start): off by \(error) input frames")
        }
    }

    /// 60 s of 44.1 kHz in odd chunks gives exactly 60·48000 frames: all but the last
    /// lookahead's worth while the input runs, the rest once the lookahead is written.
    /// Most output is skipped (same stepping, no filtering) to keep the debug build fast.
    @Test func frameCountsAreExactOverAMinute() {
        let resampler = Resampler(inputRate: 44100, outputRate: 48000, channels: 1, writeCapacity: 22596)
        let chunk = Support.noise(count: 22596)
        var scratch = [Float](repeating: 0, count: 64)
        var written = 0, produced = 0, index = 0
        let total = 60 * 44100
        while written < total {
            let n = min(Self.oddChunks[index % Self.oddChunks.count], total - written)
            index += 1
            let taken = chunk.withUnsafeBufferPointer { resampler.write($0.baseAddress!, count: n) }
            #expect(taken == n)
            written += n
            produced += scratch.withUnsafeMutableBufferPointer { resampler.read(into: $0.baseAddress!, count: 64) }
            produced += resampler.skip(count: .max)
            // Output k is out once floor(k·441/480) + lookahead < written.
            let ready = max(0, (written - resampler.lookaheadInputFrames) * 480 + 440) / 441
            #expect(produced == ready)
        }
        #expect(produced == 60 * 48000 - 34)
        var silence = resampler.lookaheadInputFrames
        while silence > 0 { silence -= resampler.writeSilence(count: silence) }
        produced += resampler.skip(count: .max)
        #expect(produced == 60 * 48000)
        #expect(resampler.nextOutputInputPosition == Double(total))
    }

    @Test(arguments: [(44100, 2), (32000, 1), (32000, 3), (96000, 2), (44101, 1), (48000, 2)])
    func chunkingDoesNotChangeOutput(inputRate: Int, channels: Int) {
        let input = Support.noise(count: inputRate / 10 * channels)
        func run(_ chunks: [Int]) -> [Float] {
            let resampler = Resampler(inputRate: inputRate, outputRate: 48000, channels: channels, writeCapacity: 500)
            resampler.reset(firstOutputAtInputFrame: -3.7)
            return Support.run(resampler, input, chunks: chunks)
        }
        let reference = run([inputRate])
        // one output per 1/48000 s from input frame -3.7 to the end of the input
        let frames = Int(((Double(inputRate / 10) + 3.7) * 48000 / Double(inputRate)).rounded(.up))
        #expect(reference.count == frames * channels, "\(reference.count / channels) frames, \(frames) expected")
        for chunks in [[1], Self.oddChunks, [499, 2]] {
            let output = run(chunks)
            #expect(sameBits(output, reference) == reference.count, "chunks \(chunks)")
        }
    }

    /// Each channel of a multichannel run comes out exactly as that channel resampled alone
    /// (stereo is split into planes eight frames at a time, and filtered two channels per
    /// row load).
    @Test(arguments: [(44100, 2), (32000, 2), (44100, 3), (96000, 2), (44101, 2)])
    func channelsAreFilteredApart(inputRate: Int, channels: Int) {
        let input = Support.noise(count: inputRate / 10 * channels)
        let together = Support.run(Resampler(inputRate: inputRate, outputRate: 48000, channels: channels), input,
                                   chunks: Self.oddChunks)
        #expect((4799...4800).contains(together.count / channels), "100 ms at 48 kHz: \(together.count / channels) frames")
        for c in 0..<channels {
            let alone = Support.run(Resampler(inputRate: inputRate, outputRate: 48000, channels: 1),
                                    stride(from: c, to: input.count, by: channels).map { input[$0] }, chunks: Self.oddChunks)
            let channel = stride(from: c, to: together.count, by: channels).map { together[$0] }
            #expect(sameBits(channel, alone) == together.count / channels, "channel \(c)")
        }
    }

    @Test func skippingMatchesReadingThenDiscarding() {
        let input = Support.noise(count: 20_000)
        let read = Support.run(Resampler(inputRate: 44100, outputRate: 48000, channels: 1), input)
        let resampler = Resampler(inputRate: 44100, outputRate: 48000, channels: 1, writeCapacity: 20_000)
        input.withUnsafeBufferPointer { #expect(resampler.write($0.baseAddress!, count: 20_000) == 20_000) }
        #expect(resampler.skip(count: 1234) == 1234)
        var rest = [Float](repeating: 0, count: 5000)
        let got = rest.withUnsafeMutableBufferPointer { resampler.read(into: $0.baseAddress!, count: 5000) }
        #expect(got == 5000)
        #expect(sameBits(rest, read[1234..<6234]) == 5000)
    }

    /// Positions before input frame 0 are silence; output there needs no input at all.
    @Test func outputBeforeTheFirstInputIsSilent() {
        let resampler = Resampler(inputRate: 32000, outputRate: 48000, channels: 2)
        resampler.reset(firstOutputAtInputFrame: -1000)
        let silentOutputs = (1000 - resampler.lookaheadInputFrames) * 3 / 2
        #expect(resampler.availableOutputFrames == silentOutputs)
        let output = Support.run(resampler, Support.sine(frequency: 1000, rate: 32000, frames: 3200, channels: 2))
        #expect(output.count == (1000 + 3200) * 3 / 2 * 2)
        #expect(silentOutputs > 0 && output[0..<(silentOutputs * 2)].filter { $0 == 0 }.count == silentOutputs * 2)
        #expect(output[(silentOutputs * 2)..<(1500 * 2)].contains { $0 != 0 })
    }

    /// A start far into the input: earlier input is accepted and dropped, and once the filter
    /// window has cleared the cut (whose left side the trimmed run sees as silence) the
    /// output is the same as starting from the trimmed input.
    @Test func lateStartSkipsEarlierInput() {
        let input = Support.noise(count: 20_000)
        let late = Resampler(inputRate: 44100, outputRate: 48000, channels: 1, writeCapacity: 256)
        late.reset(firstOutputAtInputFrame: 10_000.25)
        let trimmed = Resampler(inputRate: 44100, outputRate: 48000, channels: 1, writeCapacity: 256)
        trimmed.reset(firstOutputAtInputFrame: 0.25)
        let a = Support.run(late, input, chunks: [4000])
        let b = Support.run(trimmed, Array(input[10_000...]), chunks: [4000])
        #expect(a.count == b.count && a.count > 10_000)
        let cleared = 2 * late.lookaheadInputFrames
        #expect(sameBits(a[cleared...], b[cleared...]) == a.count - cleared)
        #expect(a[0..<cleared] != b[0..<cleared])
    }

    @Test func historyIsBoundedAndWritesReportWhatFits() {
        let resampler = Resampler(inputRate: 44100, outputRate: 48000, channels: 2, writeCapacity: 100)
        let input = Support.noise(count: 2000)
        var scratch = [Float](repeating: 0, count: 400)
        input.withUnsafeBufferPointer { all in
            let taken = resampler.write(all.baseAddress!, count: 1000)
            #expect(taken > 0 && taken < 1000)
            for _ in 0..<20 {
                _ = scratch.withUnsafeMutableBufferPointer { resampler.read(into: $0.baseAddress!, count: 200) }
                #expect(resampler.availableOutputFrames == 0)
                #expect(resampler.write(all.baseAddress!, count: 100) == 100)
            }
        }
    }

    @Test(arguments: ratePairs)
    func requiredInputFramesIsTight(inputRate: Int, outputRate: Int) {
        for (start, outputs) in [(0.0, 1), (0.4, 480), (-30.0, 7), (500.5, 1000)] {
            let resampler = Resampler(inputRate: inputRate, outputRate: outputRate, channels: 1, writeCapacity: 4096)
            resampler.reset(firstOutputAtInputFrame: start)
            let needed = resampler.requiredInputFrames(forOutputFrames: outputs)
            if needed > 0 {
                #expect(resampler.writeSilence(count: needed - 1) == needed - 1)
                #expect(resampler.availableOutputFrames < outputs)
            }
            #expect(resampler.writeSilence(count: 1) == 1)
            #expect(resampler.availableOutputFrames >= outputs)
        }
    }

    /// Integer stepping: after N outputs the position is exactly p0 + N·in/out.
    @Test func positionAdvancesExactly() {
        let resampler = Resampler(inputRate: 44100, outputRate: 48000, channels: 1, writeCapacity: 50_000)
        resampler.reset(firstOutputAtInputFrame: 3.5)
        #expect(resampler.writeSilence(count: 50_000) == 50_000)
        #expect(resampler.skip(count: 48_000) == 48_000)
        #expect(resampler.nextOutputInputPosition == 3.5 + 44100)
    }

    @Test(arguments: ratePairs)
    func constantInputStaysConstant(inputRate: Int, outputRate: Int) {
        let resampler = Resampler(inputRate: inputRate, outputRate: outputRate, channels: 1)
        let output = Support.run(resampler, [Float](repeating: 0.25, count: 3000), flush: false)
        let settled = output[(output.count / 4)...]
        #expect(settled.count >= 3000 * outputRate / inputRate / 2, "\(settled.count) outputs")
        #expect(settled.filter { abs($0 - 0.25) <= 2e-7 }.count == settled.count,
                "\(settled.map { abs($0 - 0.25) }.max() ?? .nan)")
    }
}
