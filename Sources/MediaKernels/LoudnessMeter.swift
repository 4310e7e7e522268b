import Glibc

/// EBU R128 / ITU-R BS.1770-4 loudness of an interleaved stream: momentary (400 ms),
/// short-term (3 s), gated integrated loudness in LUFS, and true peak per channel.
///
/// Energy is collected in 100 ms sub-blocks whose boundaries are exact in samples
/// (sub-block k spans [⌊k·rate/10⌋, ⌊(k+1)·rate/10⌋)), so results do not depend on buffer
/// sizes. Every completed 400 ms block (75 % overlap) above the absolute gate enters a
/// histogram of 0.01 LU bins that keeps each bin's exact energy sum; integrated loudness is
/// read from it with the relative gate placed at bin resolution. Windows that reach back
/// before the start count the missing time as silence. All memory is allocated at init.
public final class LoudnessMeter {
    public static let absoluteGate = -70.0
    public static let relativeGate = -10.0
    static let histogramTop = 30.0
    static let binsPerLU = 100.0
    static let momentarySubBlocks = 4
    static let shortTermSubBlocks = 30

    public let rate: Int
    public let channels: Int
    let weights: [Double]
    /// Copies one channel of a chunk into Floats scaled to ±1: (samples, first sample, stride, count, output).
    let deinterleave: (UnsafeRawPointer, Int, Int, Int, UnsafeMutablePointer<Float>) -> Void
    let interpolator: TruePeakInterpolator
    var filters: [KWeightingFilter]

    /// Per channel: TruePeakInterpolator.spanSamples - 1 samples of history, then the chunk.
    let scratch: UnsafeMutablePointer<Float>
    let scratchStride: Int

    var subBlockIndex = 0
    var subBlockFramesDone = 0
    var subBlockEnergy = 0.0
    /// Weighted energy sums (Σ G·y²) and lengths of the last shortTermSubBlocks sub-blocks.
    var recentEnergy: [Double]
    var recentFrames: [Double]
    var histogramEnergy: [Double]
    var histogramCount: [Int]
    /// Sums over all blocks that passed the absolute gate, and the highest bin in use, so
    /// reading the integrated loudness scans only the bins above the relative gate.
    var gatedEnergy = 0.0
    var gatedCount = 0
    var topBin = -1
    public private(set) var truePeaks: [Double]

    public init(format: SampleFormat, rate: Int, roles: [KWeighting.ChannelRole]) {
        precondition(rate > 0 && !roles.isEmpty)
        self.rate = rate
        channels = roles.count
        weights = roles.map(KWeighting.weight)
        switch format {
        case .s16le: deinterleave = Self.deinterleaver(S16LELoad.self, scale: 1 / format.fullScale)
        case .s16be: deinterleave = Self.deinterleaver(S16BELoad.self, scale: 1 / format.fullScale)
        case .s32le: deinterleave = Self.deinterleaver(S32LELoad.self, scale: 1 / format.fullScale)
        case .f32le: deinterleave = Self.deinterleaver(F32LELoad.self, scale: 1)
        case .f64le: deinterleave = Self.deinterleaver(F64LELoad.self, scale: 1)
        }
        interpolator = TruePeakInterpolator(rate: rate)
        filters = Array(repeating: KWeightingFilter(rate: Double(rate)), count: roles.count)
        scratchStride = TruePeakInterpolator.spanSamples - 1 + rate / 10 + 1
        scratch = .allocate(capacity: scratchStride * roles.count)
        let nominal = Double(rate) / 10
        recentEnergy = Array(repeating: 0, count: Self.shortTermSubBlocks)
        recentFrames = Array(repeating: nominal, count: Self.shortTermSubBlocks)
        let bins = Int((Self.histogramTop - Self.absoluteGate) * Self.binsPerLU)
        histogramEnergy = Array(repeating: 0, count: bins)
        histogramCount = Array(repeating: 0, count: bins)
        truePeaks = Array(repeating: 0, count: roles.count)
        reset()
    }

    deinit { scratch.deallocate() }

    private static func deinterleaver<L: SampleLoading>(_: L.Type, scale: Double)
        -> (UnsafeRawPointer, Int, Int, Int, UnsafeMutablePointer<Float>) -> Void {
        { samples, first, stride, count, out in
            var sample = first
            for n in 0..<count {
                out[n] = Float(L.double(samples, sample) * scale)
                sample += stride
            }
        }
    }

    /// Forgets everything measured: a new programme starts.
    public func reset() {
        for c in 0..<channels { filters[c].reset() }
        scratch.update(repeating: 0, count: scratchStride * channels)
        subBlockIndex = 0
        subBlockFramesDone = 0
        subBlockEnergy = 0
        for k in recentEnergy.indices {
            recentEnergy[k] = 0
            recentFrames[k] = Double(rate) / 10
        }
        for k in histogramEnergy.indices {
            histogramEnergy[k] = 0
            histogramCount[k] = 0
        }
        gatedEnergy = 0
        gatedCount = 0
        topBin = -1
        resetTruePeaks()
    }

    /// Starts a new true-peak measurement interval (true peaks are reported per interval).
    public func resetTruePeaks() {
        for c in 0..<channels { truePeaks[c] = 0 }
    }

    private func subBlockLength(_ k: Int) -> Int {
        (k + 1) * rate / 10 - k * rate / 10
    }

    /// Measures `frames` interleaved frames; nil samples mean digital silence (GAP buffers).
    public func process(_ samples: UnsafeRawPointer?, frames: Int) {
        var offset = 0
        while offset < frames {
            let wanted = subBlockLength(subBlockIndex) - subBlockFramesDone
            let count = min(wanted, frames - offset)
            filterChunk(samples, firstFrame: offset, count: count)
            offset += count
            subBlockFramesDone += count
            if subBlockFramesDone == subBlockLength(subBlockIndex) { finishSubBlock() }
        }
    }

    private func filterChunk(_ samples: UnsafeRawPointer?, firstFrame: Int, count: Int) {
        let history = TruePeakInterpolator.spanSamples - 1
        var energy = 0.0
        for c in 0..<channels {
            let lane = scratch + c * scratchStride
            if let samples {
                deinterleave(samples, firstFrame * channels + c, channels, count, lane + history)
            } else {
                (lane + history).update(repeating: 0, count: count)
            }
            var filter = filters[c]
            var sum = 0.0
            for n in 0..<count {
                let y = filter(Double(lane[history + n]))
                sum += y * y
            }
            filters[c] = filter
            energy += weights[c] * sum
            truePeaks[c] = max(truePeaks[c], interpolator.peak(lane + history, count: count))
            lane.update(from: lane + count, count: history)
        }
        subBlockEnergy += energy
    }

    private func finishSubBlock() {
        let slot = subBlockIndex % Self.shortTermSubBlocks
        recentEnergy[slot] = subBlockEnergy
        recentFrames[slot] = Double(subBlockLength(subBlockIndex))
        subBlockIndex += 1
        subBlockFramesDone = 0
        subBlockEnergy = 0
        if subBlockIndex >= Self.momentarySubBlocks {
            let blockEnergy = window(Self.momentarySubBlocks)
            let blockLoudness = Self.loudness(meanSquare: blockEnergy)
            if blockLoudness > Self.absoluteGate {
                let bin = min(Int((blockLoudness - Self.absoluteGate) * Self.binsPerLU), histogramCount.count - 1)
                histogramCount[bin] += 1
                histogramEnergy[bin] += blockEnergy
                gatedEnergy += blockEnergy
                gatedCount += 1
                topBin = max(topBin, bin)
            }
        }
    }

    /// Mean weighted square over the last `subBlocks` completed sub-blocks.
    private func window(_ subBlocks: Int) -> Double {
        var energy = 0.0, frames = 0.0
        for k in 1...subBlocks {
            let slot = ((subBlockIndex - k) % Self.shortTermSubBlocks + Self.shortTermSubBlocks) % Self.shortTermSubBlocks
            energy += recentEnergy[slot]
            frames += recentFrames[slot]
        }
        return energy / frames
    }

    static func loudness(meanSquare: Double) -> Double {
        meanSquare > 0 ? max(-0.691 + 10 * log10(meanSquare), Decibels.floor) : Decibels.floor
    }

    public var momentary: Double { Self.loudness(meanSquare: window(Self.momentarySubBlocks)) }
    public var shortTerm: Double { Self.loudness(meanSquare: window(Self.shortTermSubBlocks)) }

    /// Gated integrated loudness of everything since the last reset; the floor until a
    /// block has passed the absolute gate.
    public var integrated: Double {
        guard gatedCount > 0 else { return Decibels.floor }
        let gate = Self.loudness(meanSquare: gatedEnergy / Double(gatedCount)) + Self.relativeGate
        let firstBin = max(0, Int(((gate - Self.absoluteGate) * Self.binsPerLU).rounded(.up)))
        var energy = 0.0, count = 0
        for bin in stride(from: firstBin, through: topBin, by: 1) {
            energy += histogramEnergy[bin]
            count += histogramCount[bin]
        }
        return count > 0 ? Self.loudness(meanSquare: energy / Double(count)) : Decibels.floor
    }
}
