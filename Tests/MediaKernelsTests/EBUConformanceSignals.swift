// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels

/// The test signals of EBU Tech 3341 (table 1) and Tech 3342 (table 1), generated as the
/// documents describe them, at 48 kHz, fed to a `LoudnessMeter` 10 ms at a time so every
/// reading on the meter's grid can be taken.
struct EBUSignal {
    static let rate = 48000
    static let block = rate / 100

    let meter: LoudnessMeter
    let channels: Int

    init(roles: [KWeighting.ChannelRole] = [.front, .front]) {
        channels = roles.count
        meter = LoudnessMeter(format: .f32le, rate: Self.rate, roles: roles)
    }

    /// 1 kHz in phase on every channel at `dBFS` per channel (per-channel levels when given)
    /// for `seconds`, a whole number of 10 ms blocks; `each` runs after every block.
    func tone(_ dBFS: [Double], seconds: Double, each: () -> Void = {}) {
        // 10 ms of 1 kHz is ten whole periods: the block repeats seamlessly.
        var block = [Float](repeating: 0, count: Self.block * channels)
        for n in 0..<Self.block {
            let phase = sin(2 * Double.pi * 1000 * Double(n) / Double(Self.rate))
            for c in 0..<channels { block[n * channels + c] = Float(pow(10, dBFS[c] / 20) * phase) }
        }
        run(block, blocks: Int((seconds * 100).rounded()), each: each)
    }

    func tone(_ dBFS: Double, seconds: Double, each: () -> Void = {}) {
        tone(Array(repeating: dBFS, count: channels), seconds: seconds, each: each)
    }

    func silence(seconds: Double, each: () -> Void = {}) {
        run([Float](repeating: 0, count: Self.block * channels), blocks: Int((seconds * 100).rounded()), each: each)
    }

    private func run(_ block: [Float], blocks: Int, each: () -> Void) {
        block.withUnsafeBytes { bytes in
            for _ in 0..<blocks {
                meter.process(bytes.baseAddress!, frames: Self.block)
                each()
            }
        }
    }

    /// Interleaved samples of any signal, in one go.
    func samples(_ mono: [Double]) {
        var interleaved = [Float](repeating: 0, count: mono.count * channels)
        for (n, v) in mono.enumerated() { for c in 0..<channels { interleaved[n * channels + c] = Float(v) } }
        interleaved.withUnsafeBytes { meter.process($0.baseAddress!, frames: mono.count) }
    }

    /// Tech 3341 #15-19: a sine at `rate / divisor` Hz, `amplitude` FFS, starting at `phase`
    /// degrees, 1 s with 10 ms raised-cosine fades.
    static func truePeakTone(divisor: Double, amplitude: Double, phase: Double) -> [Double] {
        let count = rate
        let fade = rate / 100
        return (0..<count).map { n in
            let taper = n < fade ? Self.raisedCosine(n, fade) : n >= count - fade ? Self.raisedCosine(count - 1 - n, fade) : 1
            return taper * amplitude * sin(2 * Double.pi * Double(n) / divisor + phase * Double.pi / 180)
        }
    }

    /// Tech 3341 #20-23: fs/6 at 0.5 FFS with one period of fs/4 at 1.0 spliced in at a
    /// zero crossing (continuous in phase on both sides), made at 4·fs and low-pass filtered
    /// below fs/2; each case takes every 4th sample from its offset. `peak` is the filtered
    /// 4·fs signal's: what a true-peak meter should find.
    static let spliced: (fast: [Double], peak: Double) = {
        let up = 4
        let fastRate = Double(rate * up)
        let total = rate * up / 4
        let splice = total / 2 - (total / 2) % (6 * up)
        let periodFast = 4 * up
        var fast = [Double](repeating: 0, count: total)
        for n in 0..<total {
            if n < splice {
                fast[n] = 0.5 * sin(2 * Double.pi * Double(rate) / 6 * Double(n) / fastRate)
            } else if n < splice + periodFast {
                fast[n] = sin(2 * Double.pi * Double(rate) / 4 * Double(n - splice) / fastRate)
            } else {
                fast[n] = 0.5 * sin(2 * Double.pi * Double(rate) / 6 * Double(n - splice - periodFast) / fastRate)
            }
        }
        let fade = rate * up / 100
        for n in 0..<fade {
            fast[n] *= raisedCosine(n, fade)
            fast[total - 1 - n] *= raisedCosine(n, fade)
        }
        let filtered = lowPass(fast, cutoff: 23000 / fastRate)
        return (filtered, filtered.map(abs).max() ?? 0)
    }()

    static func splicedSignal(offset: Int) -> [Double] {
        stride(from: offset, to: spliced.fast.count, by: 4).map { spliced.fast[$0] }
    }

    static func raisedCosine(_ n: Int, _ length: Int) -> Double {
        0.5 - 0.5 * cos(Double.pi * Double(n) / Double(length))
    }

    /// Blackman-windowed sinc, 2047 taps (a transition band of about 0.5 kHz at 192 kHz),
    /// unity gain at DC; `cutoff` in cycles per sample.
    static func lowPass(_ x: [Double], cutoff: Double) -> [Double] {
        let taps = 2047, middle = taps / 2
        var h = (0..<taps).map { k -> Double in
            let t = Double(k - middle)
            let sinc = t == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * t) / (Double.pi * t)
            let w = 0.42 - 0.5 * cos(2 * Double.pi * Double(k) / Double(taps - 1)) + 0.08 * cos(4 * Double.pi * Double(k) / Double(taps - 1))
            return sinc * w
        }
        let sum = h.reduce(0, +)
        h = h.map { $0 / sum }
        var y = [Double](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { input in
            h.withUnsafeBufferPointer { taps in
                for n in 0..<x.count {
                    var acc = 0.0
                    for k in max(0, n + middle - x.count + 1)...min(taps.count - 1, n + middle) { acc += taps[k] * input[n + middle - k] }
                    y[n] = acc
                }
            }
        }
        return y
    }
}
