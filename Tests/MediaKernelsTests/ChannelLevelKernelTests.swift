import MediaKernels
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

    @Test(arguments: SampleFormat.allCases)
    func matchesAPlainDoubleLoop(format: SampleFormat) {
        for channels in 1...8 {
            for frames in [0, 1, 5, 15, 17, 333, 4801] {
                let (bytes, values) = Self.rawSamples(format, count: frames * channels)
                var sums = [Double](repeating: 0, count: channels)
                var peaks = [Double](repeating: 0, count: channels)
                let kernel = ChannelLevelKernel(format: format)
                bytes.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    kernel.accumulate(base, frames, channels, &sums, &peaks)
                }
                for c in 0..<channels {
                    let mine = stride(from: c, to: values.count, by: channels).map { values[$0] }
                    let sum = mine.map { $0 * $0 }.reduce(0, +)
                    let peak = mine.map(abs).max() ?? 0
                    #expect(abs(sums[c] - sum) <= 1e-6 * max(sum, 1), "\(format) \(channels)ch \(frames) frames, channel \(c)")
                    #expect(abs(peaks[c] - peak) <= 1e-7 * max(peak, 1), "\(format) \(channels)ch \(frames) frames, channel \(c)")
                }
            }
        }
    }

    @Test func accumulatesAcrossCalls() {
        let (bytes, values) = Self.rawSamples(.s16le, count: 200)
        var sums = [0.0, 0.0], peaks = [0.0, 0.0]
        let kernel = ChannelLevelKernel(format: .s16le)
        bytes.withUnsafeBytes { raw in
            kernel.accumulate(raw.baseAddress!, 60, 2, &sums, &peaks)
            kernel.accumulate(raw.baseAddress! + 240, 40, 2, &sums, &peaks)
        }
        let left = stride(from: 0, to: 200, by: 2).map { values[$0] * values[$0] }.reduce(0, +)
        #expect(abs(sums[0] - left) <= 1e-6 * left)
    }
}
