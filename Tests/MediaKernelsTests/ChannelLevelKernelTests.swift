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
