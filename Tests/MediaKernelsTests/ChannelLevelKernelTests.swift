// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import MediaKernels
import Testing

@Suite struct ChannelLevelKernelTests {
    /// Deterministic samples covering the whole range, as raw values of each format.
    static func rawSamples(_ format: SampleFormat, count: Int) -> (bytes: [UInt8], values: [Double]) {
        var bytes: [UInt8] = [], values: [Double] = []
        var state: UInt32 = 12345
        for _ in 0..<count {
            state = state &* 1_664_525 &+ 1_013_904_223
            let unit = Double(Int32(bitPattern: state)) / 2_147_483_648
            switch format {
            case .s8:
                let v = Int8(truncatingIfNeeded: Int32(bitPattern: state) >> 24)
                bytes.append(UInt8(bitPattern: v))
                values.append(Double(v))
            case .s16le, .s16be:
                let v = Int16(truncatingIfNeeded: Int32(bitPattern: state) >> 16)
                let bits = format == .s16le ? UInt16(bitPattern: v).littleEndian : UInt16(bitPattern: v).bigEndian
                withUnsafeBytes(of: bits) { bytes += $0 }
                values.append(Double(v))
            case .s32le:
                let v = Int32(bitPattern: state)
                withUnsafeBytes(of: v.littleEndian) { bytes += $0 }
                values.append(Double(v))
            case .f32le:
                let v = Float(unit)
                withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 }
                values.append(Double(v))
            case .f64le:
                withUnsafeBytes(of: unit.bitPattern.littleEndian) { bytes += $0 }
                values.append(unit)
            }
        }
        return (bytes, values)
    }

    /// Both compiled copies of the loops (baseline x86-64 and AVX2) against plain Doubles.
    @Test(arguments: SampleFormat.allCases, [KernelLoops.fastest, .baseline])
    func matchesAPlainDoubleLoop(format: SampleFormat, loops: KernelLoops) {
        var compared = 0
        for channels in 1...8 {
            for frames in [0, 1, 5, 15, 17, 333, 4801] {
                let (bytes, values) = Self.rawSamples(format, count: frames * channels)
                var sums = [Double](repeating: 0, count: channels)
                var peaks = [Double](repeating: 0, count: channels)
                let kernel = ChannelLevelKernel(format: format, channels: channels, loops: loops)
                #expect(kernel.usesAVX2 == (loops == .fastest && KernelLoops.cpuHasAVX2))
                bytes.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    kernel.add(base, frames: frames)
                }
                kernel.drain(sumsOfSquares: &sums, peaks: &peaks)
                for c in 0..<channels {
                    let mine = stride(from: c, to: values.count, by: channels).map { values[$0] }
                    let sum = mine.map { $0 * $0 }.reduce(0, +)
                    let peak = mine.map(abs).max() ?? 0
                    #expect(abs(sums[c] - sum) <= 1e-6 * max(sum, 1), "\(format) \(channels)ch \(frames) frames, channel \(c)")
                    #expect(abs(peaks[c] - peak) <= 1e-7 * max(peak, 1), "\(format) \(channels)ch \(frames) frames, channel \(c)")
                    compared += 1
                }
            }
        }
        #expect(compared == 36 * 7)
    }

    /// 8-bit squares and their sums stay exact in the Float lanes: every channel count level
    /// accepts (past 8 the lanes repeat every channels / gcd(16, channels) blocks), sums and
    /// peaks equal to the last unit.
    @Test(arguments: [KernelLoops.fastest, .baseline])
    func s8IsExactForAnyChannelCount(loops: KernelLoops) {
        for channels in [1, 2, 3, 8, 9, 12, 19, 64, 70] {
            for frames in [0, 1, 15, 17, 333, 4801] {
                let (bytes, values) = Self.rawSamples(.s8, count: frames * channels)
                var sums = [Double](repeating: 0, count: channels), peaks = sums
                let kernel = ChannelLevelKernel(format: .s8, channels: channels, loops: loops)
                bytes.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    kernel.add(base, frames: frames)
                }
                kernel.drain(sumsOfSquares: &sums, peaks: &peaks)
                let mine = (0..<channels).map { c in stride(from: c, to: values.count, by: channels).map { values[$0] } }
                #expect(sums == mine.map { $0.map { $0 * $0 }.reduce(0, +) }, "\(channels)ch \(frames) frames")
                #expect(peaks == mine.map { $0.map(abs).max() ?? 0 }, "\(channels)ch \(frames) frames")
            }
        }
    }

    /// Full scale is -128: its square is 128², and a channel of it reads that exactly.
    @Test func s8FullScale() {
        let bytes: [Int8] = [-128, 127, 0, -1, 64, -64] + [Int8](repeating: -128, count: 6 * 99)
        let kernel = ChannelLevelKernel(format: .s8, channels: 6)
        var sums = [Double](repeating: 0, count: 6), peaks = sums
        bytes.withUnsafeBytes { kernel.add($0.baseAddress!, frames: 100) }
        kernel.drain(sumsOfSquares: &sums, peaks: &peaks)
        let rest: Double = 99 * 16384
        let expected: [Double] = [16384 + rest, 16129 + rest, rest, 1 + rest, 4096 + rest, 4096 + rest]
        #expect(sums == expected)
        #expect(peaks == [128, 128, 128, 128, 128, 128])
    }

    /// Every format past 8 channels, against plain Doubles, both copies of the loops.
    @Test(arguments: SampleFormat.allCases, [KernelLoops.fastest, .baseline])
    func moreThanEightChannels(format: SampleFormat, loops: KernelLoops) {
        for channels in [9, 12, 70] {
            for frames in [1, 17, 4801] {
                let (bytes, values) = Self.rawSamples(format, count: frames * channels)
                var sums = [Double](repeating: 0, count: channels), peaks = sums
                let kernel = ChannelLevelKernel(format: format, channels: channels, loops: loops)
                bytes.withUnsafeBytes { kernel.add($0.baseAddress!, frames: frames) }
                kernel.drain(sumsOfSquares: &sums, peaks: &peaks)
                for c in 0..<channels {
                    let mine = stride(from: c, to: values.count, by: channels).map { values[$0] }
                    let sum = mine.map { $0 * $0 }.reduce(0, +)
                    #expect(abs(sums[c] - sum) <= 1e-6 * max(sum, 1), "\(format) \(channels)ch \(frames) frames, channel \(c)")
                    // S32 reads a negative peak up to one unit low (see S32LELoad).
                    let peak = mine.map(abs).max() ?? 0
                    #expect(abs(peaks[c] - peak) <= 1e-7 * max(peak, 1), "\(format) \(channels)ch \(frames) frames, channel \(c)")
                }
            }
        }
    }

    /// Calls of any length keep adding to the same totals until drained; draining resets.
    @Test(arguments: [1, 2, 3, 6])
    func accumulatesAcrossCallsUntilDrained(channels: Int) {
        let frames = 3000
        let (bytes, values) = Self.rawSamples(.s16le, count: frames * channels)
        let kernel = ChannelLevelKernel(format: .s16le, channels: channels)
        var sums = [Double](repeating: 0, count: channels), peaks = sums
        bytes.withUnsafeBytes { raw in
            var frame = 0
            for length in [1, 7, 16, 333, 2000, 643] {
                kernel.add(raw.baseAddress! + frame * channels * 2, frames: length)
                frame += length
            }
        }
        kernel.drain(sumsOfSquares: &sums, peaks: &peaks)
        for c in 0..<channels {
            let mine = stride(from: c, to: values.count, by: channels).map { values[$0] }
            let sum = mine.map { $0 * $0 }.reduce(0, +)
            #expect(abs(sums[c] - sum) <= 1e-6 * sum)
            #expect(peaks[c] == mine.map(abs).max())
        }
        var again = [Double](repeating: 0, count: channels), againPeaks = again
        kernel.drain(sumsOfSquares: &again, peaks: &againPeaks)
        #expect(again == [Double](repeating: 0, count: channels))
        #expect(againPeaks == [Double](repeating: 0, count: channels))
    }
}
