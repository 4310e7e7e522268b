// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// How a scaler weighs source samples.
public enum ScalingMethod: Sendable, CaseIterable {
    /// 2-tap linear interpolation at the output sample centre, the geometry of
    /// `videoscale method=bilinear` (GStreamer's linear resampler limited to 2 taps). It
    /// skips source samples when reducing by more than 2x, which aliases.
    case bilinear
    /// Each output sample averages the source area it covers (box filter, exact partial
    /// coverage at the ends): no aliasing when reducing.
    case area
    /// Per axis: `bilinear` up to a 2x reduction, `area` beyond.
    case automatic
    /// `bilinear` with the sample geometry `videoscale method=bilinear` really has in
    /// GStreamer 1.22 (measured, not documented): on planes of 1- or 4-byte samples (luma,
    /// I420 chroma, RGBA) the horizontal taps are corner-aligned, x = j·(in−1)/(out−1)
    /// (its 2-tap fast path steps a 16.16 accumulator), while NV12's interleaved chroma, every
    /// vertical pass and 4:2:0 pictures reduced exactly 2x horizontally use sample centres. That shifts luma
    /// against NV12 chroma by up to (ratio−1)/2 pixels at the picture edges; it exists to
    /// reproduce `videoscale` output, not as a quality choice.
    case videoscaleCompatible
}

/// Where 4:2:0 chroma samples sit relative to luma, in luma pixels from the left/top luma
/// sample of their 2×2 block: 0 is co-sited, 0.5 is centred between the two.
public struct ChromaSiting: Hashable, Sendable {
    public var horizontal: Double
    public var vertical: Double

    public init(horizontal: Double, vertical: Double) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// JPEG / GStreamer `chroma-site=jpeg`: centred both ways.
    public static let center = ChromaSiting(horizontal: 0.5, vertical: 0.5)
    /// MPEG-2, H.264 default / GStreamer `chroma-site=mpeg2`: co-sited horizontally, centred
    /// vertically.
    public static let mpeg2 = ChromaSiting(horizontal: 0, vertical: 0.5)
}

/// Precomputed taps of a 1-D resampling from `inputCount` to `outputCount` samples: output
/// `j` is Σₖ `weights[j·taps + k]` · input[`offsets[j]` + k], weights summing to `unit`.
/// Every offset keeps `offset + taps` inside the input, padding taps have weight 0.
struct ResampleTable {
    let inputCount: Int
    let outputCount: Int
    let taps: Int
    let unit: Int
    let offsets: [Int]
    let weights: [Int32]

    /// `position(j)` is the centre of output sample `j` in input sample coordinates (input
    /// sample `i` is centred at `i`); `support` is the width of input covered per output
    /// sample (the reduction ratio) and only matters for `area`.
    init(inputCount: Int, outputCount: Int, useArea: Bool, support: Double, unit: Int,
         position: (Int) -> Double) {
        precondition(inputCount > 0 && outputCount > 0, "empty resampling")
        var raw: [[Double]] = [], starts: [Int] = []
        for j in 0..<outputCount {
            let centre = position(j)
            if inputCount == 1 {
                starts.append(0); raw.append([1])
            } else if useArea && support > 1 {
                let low = Swift.max(centre + 0.5 - support / 2, 0)
                let high = Swift.min(centre + 0.5 + support / 2, Double(inputCount))
                let first = Swift.min(Int(low.rounded(.down)), inputCount - 1)
                var weights: [Double] = []
                var index = first
                while Double(index) < high || index == first {
                    let overlap = Swift.min(high, Double(index + 1)) - Swift.max(low, Double(index))
                    weights.append(Swift.max(overlap, 0))
                    index += 1
                    if index >= inputCount { break }
                }
                if weights.reduce(0, +) <= 0 { weights = [1] }
                starts.append(first); raw.append(weights)
            } else {
                let clamped = Swift.min(Swift.max(centre, 0), Double(inputCount - 1))
                let first = Swift.min(Int(clamped.rounded(.down)), inputCount - 2)
                let fraction = clamped - Double(first)
                starts.append(first); raw.append([1 - fraction, fraction])
            }
        }
        let taps = raw.map(\.count).max() ?? 1
        var offsets: [Int] = [], weights: [Int32] = []
        for j in 0..<outputCount {
            // Pad on the right; shift the window left when that would run past the input.
            let start = Swift.min(starts[j], inputCount - taps)
            let shift = starts[j] - start
            var row = [Double](repeating: 0, count: taps)
            for (k, value) in raw[j].enumerated() { row[k + shift] = value }
            offsets.append(start)
            weights += Self.quantised(row, unit: unit)
        }
        self.inputCount = inputCount
        self.outputCount = outputCount
        self.taps = taps
        self.unit = unit
        self.offsets = offsets
        self.weights = weights
    }

    /// Rounds weights to integers summing exactly to `unit`, so flat areas stay flat; the
    /// rounding remainder goes to the largest weight.
    private static func quantised(_ row: [Double], unit: Int) -> [Int32] {
        let total = row.reduce(0, +)
        var result = row.map { Int32(($0 / total * Double(unit)).rounded()) }
        let remainder = Int32(unit) - result.reduce(0, +)
        if let largest = result.indices.max(by: { result[$0] < result[$1] }) { result[largest] += remainder }
        return result
    }
}
