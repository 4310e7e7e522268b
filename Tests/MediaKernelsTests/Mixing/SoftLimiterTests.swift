// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import Testing

@Suite struct SoftLimiterTests {
    let limiter = SoftLimiter()

    /// −4…4 in steps of 2⁻¹³, run through the vector path.
    static let sweep: [Float] = (-32768...32768).map { Float($0) / 8192 }

    func limited(_ values: [Float]) -> [Float] {
        var out = values
        out.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, count: $0.count) }
        return out
    }

    @Test func thresholdIsMinusOneDecibel() {
        #expect(abs(20 * log10(Double(limiter.threshold)) - -1) < 1e-6)
    }

    @Test func belowTheThresholdIsTheIdentity() {
        let below = Self.sweep.filter { abs($0) <= limiter.threshold } + [limiter.threshold, -limiter.threshold, 0, -0.0]
        let out = limited(below)
        #expect(below.count > 14_000 && sameBits(out, below) == below.count)
    }

    @Test func everythingUpToFourTimesFullScaleStaysInside() {
        let out = limited(Self.sweep + [1e6, -1e30, .greatestFiniteMagnitude, .infinity, -.infinity])
        #expect(out.count == Self.sweep.count + 5 && out.filter { $0 > -1 && $0 < 1 }.count == out.count)
        #expect(limited([4])[0] > 0.99 && limited([1])[0] > 0.94)
    }

    @Test func curveIsMonotonicOddAndSmooth() {
        let out = limited(Self.sweep)
        #expect(out.count == Self.sweep.count)
        #expect(zip(out, out.dropFirst()).filter { $0 <= $1 }.count == out.count - 1)
        #expect(zip(out, out.reversed()).filter { $0 == -$1 }.count == out.count)
        // Slope 1 on both sides of the knee: no corner.
        let t = limiter.threshold, d: Float = 1e-4
        let above = (limiter(t + d) - limiter(t)) / d
        #expect(abs(above - 1) < 0.01)
    }

    @Test func vectorAndScalarPathsAgree() {
        let values = Self.sweep.enumerated().filter { $0.offset % 97 == 0 }.map(\.element)
        #expect(limited(values) == values.map { limiter($0) })
    }

    /// Buffers are screened before shaping: one sample over the threshold, wherever it sits
    /// (vector body or tail), gets shaped, and nothing else changes.
    @Test func aSingleOverIsFoundAnywhere() {
        let quiet = Self.sweep.filter { abs($0) <= limiter.threshold }
        for count in [1, 15, 16, 17, 40] {
            for position in 0..<count {
                var values = Array(quiet.prefix(count))
                values[position] = position % 2 == 0 ? 1.5 : -1.5
                let out = limited(values)
                #expect(abs(out[position]) < 1 && abs(out[position]) > limiter.threshold, "\(count) at \(position)")
                #expect(out.count == count && zip(out, values).filter { $0 == $1 }.count == count - 1, "\(count) at \(position)")
            }
        }
    }

    @Test func notANumberPassesThrough() {
        let out = limited([Float.nan] + Array(repeating: 0.5, count: 20) + [2, .nan])
        #expect(out[0].isNaN && out[22].isNaN && out[21] < 1 && out[1...20].allSatisfy { $0 == 0.5 })
    }
}
