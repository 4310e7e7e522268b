/// Per-channel sum of squares and largest magnitude of interleaved samples, in raw sample
/// units, added into caller-owned accumulators. Chosen once per format; allocates nothing.
public struct ChannelLevelKernel: Sendable {
    public typealias Function = @Sendable (
        _ samples: UnsafeRawPointer, _ frames: Int, _ channels: Int,
        _ sumsOfSquares: UnsafeMutablePointer<Double>, _ peaks: UnsafeMutablePointer<Double>
    ) -> Void

    public let format: SampleFormat
    public let accumulate: Function

    public init(format: SampleFormat) {
        self.format = format
        switch format {
        case .s16le: accumulate = { channelLevels(S16LELoad.self, $0, $1, $2, $3, $4) }
        case .s16be: accumulate = { channelLevels(S16BELoad.self, $0, $1, $2, $3, $4) }
        case .s32le: accumulate = { channelLevels(S32LELoad.self, $0, $1, $2, $3, $4) }
        case .f32le: accumulate = { channelLevels(F32LELoad.self, $0, $1, $2, $3, $4) }
        case .f64le: accumulate = { channelLevels(F64LELoad.self, $0, $1, $2, $3, $4) }
        }
    }
}

/// Float partial sums are moved into the Double totals every this many vectors, which keeps
/// the relative rounding error of a sum below 1e-5 (≈ 0.00004 dB).
private let vectorsPerFlush = 64
private let lanes = 16

private func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

/// Lane l of vector v (counted from the start) holds channel (v·16 + l) mod channels, so the
/// lane-to-channel pattern repeats every `channels / gcd(16, channels)` vectors: one vector
/// for 1, 2, 4, 8 channels, three for 3 and 6, five for 5, seven for 7.
@inline(__always)
private func channelLevels<L: SampleLoading>(
    _: L.Type, _ base: UnsafeRawPointer, _ frames: Int, _ channels: Int,
    _ sums: UnsafeMutablePointer<Double>, _ peaks: UnsafeMutablePointer<Double>
) {
    let total = frames * channels
    let period = channels / gcd(lanes, channels)
    var done = 0
    if period == 1 {
        done = uniformLanes(L.self, base, total, channels, sums, peaks)
    } else {
        done = periodicLanes(L.self, base, total, channels, period, sums, peaks)
    }
    var sample = done
    while sample < total {
        let value = L.scalar(base, sample)
        let channel = sample % channels
        sums[channel] += Double(value) * Double(value)
        peaks[channel] = max(peaks[channel], Double(abs(value)))
        sample += 1
    }
}

@inline(__always)
private func uniformLanes<L: SampleLoading>(
    _: L.Type, _ base: UnsafeRawPointer, _ total: Int, _ channels: Int,
    _ sums: UnsafeMutablePointer<Double>, _ peaks: UnsafeMutablePointer<Double>
) -> Int {
    let vectors = total / lanes
    var highest = SIMD16<Float>(repeating: 0)
    var lowest = SIMD16<Float>(repeating: 0)
    var vector = 0
    while vector < vectors {
        let end = min(vector + vectorsPerFlush, vectors)
        var squares = SIMD16<Float>(repeating: 0)
        while vector < end {
            let v = L.vector(base, vector &* lanes)
            squares.addProduct(v, v)
            highest = pointwiseMax(highest, v)
            lowest = pointwiseMin(lowest, v)
            vector &+= 1
        }
        for lane in 0..<lanes { sums[lane % channels] += Double(squares[lane]) }
    }
    for lane in 0..<lanes {
        let channel = lane % channels
        peaks[channel] = max(peaks[channel], Double(max(highest[lane], -lowest[lane])))
    }
    return vectors * lanes
}

private func periodicLanes<L: SampleLoading>(
    _: L.Type, _ base: UnsafeRawPointer, _ total: Int, _ channels: Int, _ period: Int,
    _ sums: UnsafeMutablePointer<Double>, _ peaks: UnsafeMutablePointer<Double>
) -> Int {
    let periods = total / (lanes * period)
    withUnsafeTemporaryAllocation(of: SIMD16<Float>.self, capacity: 3 * period) { scratch in
        let squares = scratch.baseAddress!
        let highest = squares + period
        let lowest = highest + period
        for k in 0..<(3 * period) { scratch[k] = SIMD16(repeating: 0) }
        var index = 0
        while index < periods {
            let end = min(index + vectorsPerFlush, periods)
            while index < end {
                let first = index &* period
                for k in 0..<period {
                    let v = L.vector(base, (first &+ k) &* lanes)
                    squares[k].addProduct(v, v)
                    highest[k] = pointwiseMax(highest[k], v)
                    lowest[k] = pointwiseMin(lowest[k], v)
                }
                index &+= 1
            }
            for k in 0..<period {
                for lane in 0..<lanes { sums[(k * lanes + lane) % channels] += Double(squares[k][lane]) }
                squares[k] = SIMD16(repeating: 0)
            }
        }
        for k in 0..<period {
            for lane in 0..<lanes {
                let channel = (k * lanes + lane) % channels
                peaks[channel] = max(peaks[channel], Double(max(highest[k][lane], -lowest[k][lane])))
            }
        }
    }
    return periods * lanes * period
}
