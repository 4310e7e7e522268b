// SPDX-License-Identifier: LGPL-2.1-or-later
/// The level kernel's loops. Compiled twice, like ResamplerLoops: into MediaKernels for
/// baseline x86-64 and, through a symbolic link, into MediaKernelsAVX2 for AVX2 (16 samples
/// of 16 bits are one register); `ChannelLevelKernel` picks one by what the CPU has. Each
/// copy specialises the accumulator for every format inside its own module, where it is
/// compiled for its target.
#if !KERNELS_FMA
import MediaKernelsAVX2
#endif

package enum LevelLoops {
    package static func lanes(format: SampleFormat, channels: Int) -> LevelLanes {
        switch format {
        case .s8: bind(LaneAccumulator<S8Load>(channels: channels))
        case .s16le: bind(LaneAccumulator<S16LELoad>(channels: channels))
        case .s16be: bind(LaneAccumulator<S16BELoad>(channels: channels))
        case .s32le: bind(LaneAccumulator<S32LELoad>(channels: channels))
        case .f32le: bind(LaneAccumulator<F32LELoad>(channels: channels))
        case .f64le: bind(LaneAccumulator<F64LELoad>(channels: channels))
        }
    }

    /// Closures over a concretely typed accumulator, so its loops are specialised for the
    /// format (a generic class reached through a protocol would run unspecialised).
    @inline(__always)
    private static func bind<L>(_ lanes: LaneAccumulator<L>) -> LevelLanes {
        LevelLanes(add: { lanes.add($0, samples: $1) }, drain: { lanes.drain($0, $1) }, takePeaks: { lanes.takePeaks($0) })
    }
}

private let blockSamples = 16
/// Float partial sums move into Double totals every this many blocks per position, which
/// keeps the relative rounding error of a sum below 1e-5 (≈ 0.00004 dB).
private let blocksPerFlush = 64

/// Running sums and extremes of one block position (16 samples as two SIMD8 vectors).
private struct BlockAccumulator<L: SampleLoading> {
    var sumA = SIMD8<L.Value>(repeating: 0), sumB = SIMD8<L.Value>(repeating: 0)
    var extremes = L.noExtremes

    @inline(__always)
    mutating func add(_ base: UnsafeRawPointer, block: Int) {
        let (a, b) = L.block(base, block, &extremes)
        // One instruction where it is one (the generic addProduct is a libm call per lane on
        // baseline x86-64).
        #if KERNELS_FMA
        sumA.addProduct(a, a)
        sumB.addProduct(b, b)
        #else
        sumA += a * a
        sumB += b * b
        #endif
    }
}

/// Block k of a call starts at sample 16·k, and every call starts on a frame, so lane l of
/// vector v always holds channel (16·k + position(v, l)) mod channels: the pattern repeats
/// every channels / gcd(16, channels) blocks — one block for 1, 2, 4, 8 channels, more for
/// 3, 5, 6, 7 — and one accumulator per block of the period serves every call.
private final class LaneAccumulator<L: SampleLoading> {
    let channels: Int
    let period: Int
    let blocks: UnsafeMutablePointer<BlockAccumulator<L>>
    /// Double totals of what was flushed out of the vectors and of the scalar tails.
    let totals: UnsafeMutablePointer<Double>
    let tailPeaks: UnsafeMutablePointer<Double>
    /// The channel of sample position p of the period's blocks, and of lane l of vector v of
    /// block k at (k·16 + v·8 + l): peaks and sums are collected for every buffer, and a
    /// division per lane would cost more than the rest of it.
    let positionChannel: UnsafeMutablePointer<Int>
    let laneChannel: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) var unflushed = 0

    init(channels: Int) {
        self.channels = channels
        period = channels / gcd(blockSamples, channels)
        blocks = .allocate(capacity: period)
        blocks.initialize(repeating: BlockAccumulator(), count: period)
        totals = .allocate(capacity: 2 * channels)
        totals.initialize(repeating: 0, count: 2 * channels)
        tailPeaks = totals + channels
        positionChannel = .allocate(capacity: period * blockSamples)
        for position in 0..<(period * blockSamples) { positionChannel[position] = position % channels }
        laneChannel = .allocate(capacity: period * blockSamples)
        for k in 0..<period {
            for vector in 0..<2 {
                for lane in 0..<8 {
                    laneChannel[k * blockSamples + vector * 8 + lane] = (k * blockSamples + L.position(vector: vector, lane: lane)) % channels
                }
            }
        }
    }

    deinit {
        blocks.deallocate()
        totals.deallocate()
        positionChannel.deallocate()
        laneChannel.deallocate()
    }

    func add(_ base: UnsafeRawPointer, samples: Int) {
        let runs = samples / (blockSamples * period)
        var run = 0
        if period == 1 {
            var accumulator = blocks.pointee
            while run < runs {
                let end = min(run + blocksPerFlush - unflushed, runs)
                unflushed += end - run
                while run < end {
                    accumulator.add(base, block: run)
                    run &+= 1
                }
                if unflushed == blocksPerFlush { flushSums(&accumulator, first: 0) }
            }
            blocks.pointee = accumulator
        } else {
            while run < runs {
                let end = min(run + blocksPerFlush - unflushed, runs)
                unflushed += end - run
                while run < end {
                    for k in 0..<period { blocks[k].add(base, block: run &* period &+ k) }
                    run &+= 1
                }
                if unflushed == blocksPerFlush {
                    for k in 0..<period { flushSums(&blocks[k], first: k * blockSamples) }
                }
            }
        }
        var sample = runs * blockSamples * period
        while sample < samples {
            let value = L.double(base, sample)
            let channel = sample % channels
            totals[channel] += value * value
            tailPeaks[channel] = max(tailPeaks[channel], abs(value))
            sample += 1
        }
    }

    private func flushSums(_ accumulator: inout BlockAccumulator<L>, first: Int) {
        let channelOf = laneChannel + first
        for lane in 0..<8 {
            totals[channelOf[lane]] += Double(accumulator.sumA[lane])
            totals[channelOf[8 &+ lane]] += Double(accumulator.sumB[lane])
        }
        accumulator.sumA = .init(repeating: 0)
        accumulator.sumB = .init(repeating: 0)
        unflushed = 0
    }

    func drain(_ sums: UnsafeMutablePointer<Double>, _ peaks: UnsafeMutablePointer<Double>) {
        for k in 0..<period { flushSums(&blocks[k], first: k * blockSamples) }
        collectPeaks(peaks)
        for c in 0..<channels {
            sums[c] += totals[c]
            totals[c] = 0
        }
    }

    func takePeaks(_ peaks: UnsafeMutablePointer<Double>) {
        for c in 0..<channels { peaks[c] = 0 }
        collectPeaks(peaks)
    }

    /// Folds the lanes' extremes and the tails' peaks into `peaks` and clears them.
    private func collectPeaks(_ peaks: UnsafeMutablePointer<Double>) {
        if period == 1 && L.foldPeaks(blocks[0].extremes, channels: channels, into: peaks) {
            blocks[0].extremes = L.noExtremes
        } else {
            collectPeaksByPosition(peaks)
        }
        for c in 0..<channels {
            peaks[c] = max(peaks[c], tailPeaks[c])
            tailPeaks[c] = 0
        }
    }

    private func collectPeaksByPosition(_ peaks: UnsafeMutablePointer<Double>) {
        for k in 0..<period {
            let extremes = blocks[k].extremes
            for sample in 0..<blockSamples {
                let channel = positionChannel[k &* blockSamples &+ sample]
                peaks[channel] = max(peaks[channel], L.peak(extremes, at: sample))
            }
            blocks[k].extremes = L.noExtremes
        }
    }
}
