// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// Least-squares fit of amplitude·sin(2π·f·n/rate + phase) + offset to one channel of a
/// Float signal at a known frequency, and what the fit leaves over. The residual is
/// everything that is not the tone (harmonics, images, aliases, noise), so its power over the
/// tone's power is THD+N, the figure resamplers are compared by.
public struct SineFit: Sendable {
    public let amplitude: Double
    /// Radians, for a sine starting at the first frame.
    public let phase: Double
    public let offset: Double
    public let residualRMS: Double

    /// Residual power relative to the tone's power (amplitude²/2), in dB.
    public var thdPlusNoiseDecibels: Double {
        Decibels.fromPower(residualRMS * residualRMS / (amplitude * amplitude / 2))
    }

    public init(
        _ samples: UnsafePointer<Float>, frames: Int, channel: Int = 0, channels: Int = 1,
        frequency: Double, sampleRate: Double
    ) {
        precondition(frames > 3 && (0..<channels).contains(channel))
        let omega = 2 * Double.pi * frequency / sampleRate
        // Normal equations for the basis (sin, cos, 1).
        var ss = 0.0, cc = 0.0, sc = 0.0, s1 = 0.0, c1 = 0.0
        var xs = 0.0, xc = 0.0, x1 = 0.0
        for n in 0..<frames {
            let s = sin(omega * Double(n)), c = cos(omega * Double(n))
            let x = Double(samples[n * channels + channel])
            ss += s * s; cc += c * c; sc += s * c; s1 += s; c1 += c
            xs += x * s; xc += x * c; x1 += x
        }
        let count = Double(frames)
        let (a, b, d) = Self.solve(
            [[ss, sc, s1], [sc, cc, c1], [s1, c1, count]], [xs, xc, x1])
        var residual = 0.0
        for n in 0..<frames {
            let fitted = a * sin(omega * Double(n)) + b * cos(omega * Double(n)) + d
            let e = Double(samples[n * channels + channel]) - fitted
            residual += e * e
        }
        amplitude = (a * a + b * b).squareRoot()
        phase = atan2(b, a)
        offset = d
        residualRMS = (residual / count).squareRoot()
    }

    public init(_ samples: [Float], channel: Int = 0, channels: Int = 1, frequency: Double, sampleRate: Double) {
        self = samples.withUnsafeBufferPointer {
            SineFit($0.baseAddress!, frames: $0.count / channels, channel: channel, channels: channels,
                    frequency: frequency, sampleRate: sampleRate)
        }
    }

    /// Gaussian elimination with partial pivoting on a 3×3 system.
    private static func solve(_ m: [[Double]], _ v: [Double]) -> (Double, Double, Double) {
        var a = m, b = v
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            a.swapAt(col, pivot); b.swapAt(col, pivot)
            for row in (col + 1)..<3 {
                let f = a[row][col] / a[col][col]
                for k in col..<3 { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        var x = [0.0, 0.0, 0.0]
        for row in stride(from: 2, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<3 { sum -= a[row][k] * x[k] }
            x[row] = sum / a[row][row]
        }
        return (x[0], x[1], x[2])
    }
}
