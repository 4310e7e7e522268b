// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import MediaKernelsAVX2

/// EBU R128 / ITU-R BS.1770-4 loudness of an interleaved stream: momentary (400 ms), short-term
/// (3 s), gated integrated loudness in LUFS, their maxima since the last reset, loudness range
/// (EBU Tech 3342) and true peak per channel.
///
/// Energy is collected in 10 ms sub-blocks whose boundaries are exact in samples (sub-block k
/// spans [⌊k·rate/100⌋, ⌊(k+1)·rate/100⌋)), so results do not depend on buffer sizes, and
/// momentary and short-term loudness are evaluated at every sub-block: fine enough for EBU Tech
/// 3341's maximum-loudness cases, whose bursts start on a 20 ms grid. Every 100 ms a 400 ms
/// gating block (75 % overlap) above the absolute gate enters a histogram of 0.01 LU bins that
/// keeps each bin's energy sum; integrated loudness is read from it with the relative gate
/// placed at bin resolution, in O(log bins); the short-term loudness at the same moments feeds
/// the loudness range (0.1 LU bins). Windows that reach back before the start count the missing
/// time as silence. All memory is allocated at init.
public final class LoudnessMeter {
    public static let absoluteGate = -70.0
    public static let relativeGate = -10.0
    static let histogramTop = 30.0
    static let binsPerLU = 100.0
    static let subBlocksPerSecond = 100
    static let momentarySubBlocks = 40
    static let shortTermSubBlocks = 300
    /// Sub-blocks between gating blocks (and loudness range samples): 100 ms.
    static let gatingStride = 10

    public let rate: Int
    public let channels: Int
    let format: SampleFormat
    /// Per channel pair (lanes of `filters`), the channels' BS.1770 weights; 0 for the empty
    /// lane of an odd channel count.
    let weights: [SIMD2<Double>]
    let interpolator: TruePeakInterpolator
    let useAVX2: Bool
    /// K-weighting per channel pair: channels 2k and 2k + 1 are the lanes of filters[k].
    let filters: UnsafeMutablePointer<KWeightingLanes>
    var pairs: Int { weights.count }

    /// Interleaved Floats scaled to ±1: TruePeakInterpolator.spanSamples − 1 frames of
    /// history, then the chunk (at most one sub-block), then the interpolator's padding.
    let scratch: UnsafeMutablePointer<Float>
    let historySamples: Int
    let chunkOffset: Int
    let scratchCount: Int

    // Touched by one streaming thread only; dynamic exclusivity checks on this state cost
    // more than the bookkeeping of a 10 ms sub-block itself.
    @exclusivity(unchecked) var subBlockIndex = 0
    @exclusivity(unchecked) var subBlockFramesDone = 0
    @exclusivity(unchecked) var subBlockEnergy = 0.0
    /// Weighted energy sums (Σ G·y²) and lengths of the last shortTermSubBlocks sub-blocks.
    @exclusivity(unchecked) var recentEnergy: [Double]
    @exclusivity(unchecked) var recentFrames: [Double]
    /// Running sums over the momentary and short-term windows, re-summed from the ring once
    /// per turn so rounding cannot accumulate.
    @exclusivity(unchecked) var momentaryEnergy = 0.0, momentaryFrames = 0.0
    @exclusivity(unchecked) var shortTermEnergy = 0.0, shortTermFrames = 0.0
    @exclusivity(unchecked) var maxMomentaryMeanSquare = 0.0
    @exclusivity(unchecked) var maxShortTermMeanSquare = 0.0
    @exclusivity(unchecked) var range = LoudnessRange()
    /// Gating blocks above the absolute gate by loudness (0.01 LU bins), with their energies.
    @exclusivity(unchecked) var gatingBlocks: BinnedTotals
    /// Per channel, the highest true peak of this interval, then of the intervals before it.
    let truePeakStore: UnsafeMutablePointer<Double>
    var earlierTruePeaks: UnsafeMutablePointer<Double> { truePeakStore + channels }

    public convenience init(format: SampleFormat, rate: Int, roles: [KWeighting.ChannelRole]) {
        self.init(format: format, rate: rate, roles: roles, loops: .fastest)
    }

    init(format: SampleFormat, rate: Int, roles: [KWeighting.ChannelRole], loops: KernelLoops) {
        precondition(rate > 0 && !roles.isEmpty)
        self.rate = rate
        self.format = format
        channels = roles.count
        weights = (0..<((roles.count + 1) / 2)).map { k in
            SIMD2(KWeighting.weight(roles[2 * k]), 2 * k + 1 < roles.count ? KWeighting.weight(roles[2 * k + 1]) : 0)
        }
        useAVX2 = loops.useAVX2
        interpolator = TruePeakInterpolator(rate: rate, channels: roles.count, loops: loops)
        filters = .allocate(capacity: weights.count)
        filters.initialize(repeating: KWeightingLanes(rate: Double(rate)), count: weights.count)
        historySamples = (TruePeakInterpolator.spanSamples - 1) * roles.count
        chunkOffset = (historySamples + 15) / 16 * 16
        scratchCount = chunkOffset + (rate / Self.subBlocksPerSecond + 1) * roles.count
            + TruePeakInterpolator.paddingSamples
        scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchCount * 4, alignment: 64)
            .bindMemory(to: Float.self, capacity: scratchCount)
        let nominal = Double(rate) / Double(Self.subBlocksPerSecond)
        recentEnergy = Array(repeating: 0, count: Self.shortTermSubBlocks)
        recentFrames = Array(repeating: nominal, count: Self.shortTermSubBlocks)
        gatingBlocks = BinnedTotals(bins: Int((Self.histogramTop - Self.absoluteGate) * Self.binsPerLU))
        truePeakStore = .allocate(capacity: 2 * roles.count)
        truePeakStore.initialize(repeating: 0, count: 2 * roles.count)
        reset()
    }

    deinit {
        scratch.deallocate()
        filters.deallocate()
        truePeakStore.deallocate()
    }

    /// Forgets everything measured, as a new meter.
    public func reset() {
        for k in 0..<pairs { filters[k].reset() }
        scratch.update(repeating: 0, count: scratchCount)
        subBlockIndex = 0
        subBlockFramesDone = 0
        subBlockEnergy = 0
        for k in recentEnergy.indices {
            recentEnergy[k] = 0
            recentFrames[k] = Double(rate) / Double(Self.subBlocksPerSecond)
        }
        resumWindows()
        resetTruePeaks()
        resetProgramme()
    }

    /// A new programme starts: integrated loudness, loudness range and the maxima begin
    /// again; the momentary and short-term windows (and the filters) go on.
    public func resetProgramme() {
        gatingBlocks.reset()
        maxMomentaryMeanSquare = 0
        maxShortTermMeanSquare = 0
        range.reset()
        for c in 0..<channels { earlierTruePeaks[c] = 0 }
    }

    /// Starts a new true-peak measurement interval (true peaks are reported per interval;
    /// `maxTruePeaks` keeps the highest since the last reset).
    public func resetTruePeaks() {
        for c in 0..<channels {
            earlierTruePeaks[c] = max(earlierTruePeaks[c], truePeakStore[c])
            truePeakStore[c] = 0
        }
    }

    private func subBlockLength(_ k: Int) -> Int {
        (k + 1) * rate / Self.subBlocksPerSecond - k * rate / Self.subBlocksPerSecond
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
        let chunk = scratch + chunkOffset
        let chunkSamples = count * channels
        if let samples {
            PCMConversion.toFloat(samples + firstFrame * channels * format.bytesPerSample, format: format,
                                  samples: chunkSamples, into: chunk)
        } else {
            chunk.update(repeating: 0, count: chunkSamples)
        }
        let kWeightedSquares = useAVX2 ? MediaKernelsAVX2.LoudnessLoops.kWeightedSquares : LoudnessLoops.kWeightedSquares
        var energy = SIMD2<Double>()
        for k in 0..<pairs {
            energy += weights[k] * kWeightedSquares(chunk + 2 * k, count, channels, 2 * k + 1 == channels, &filters[k])
        }
        interpolator.fold(chunk, frames: count, into: truePeakStore)
        (chunk - historySamples).update(from: chunk + chunkSamples - historySamples, count: historySamples)
        subBlockEnergy += energy.sum()
    }

    private func finishSubBlock() {
        let count = Self.shortTermSubBlocks
        let slot = subBlockIndex % count
        let leaving = (subBlockIndex - Self.momentarySubBlocks + count) % count
        let frames = Double(subBlockLength(subBlockIndex))
        momentaryEnergy += subBlockEnergy - recentEnergy[leaving]
        momentaryFrames += frames - recentFrames[leaving]
        shortTermEnergy += subBlockEnergy - recentEnergy[slot]
        shortTermFrames += frames - recentFrames[slot]
        recentEnergy[slot] = subBlockEnergy
        recentFrames[slot] = frames
        subBlockIndex += 1
        subBlockFramesDone = 0
        subBlockEnergy = 0
        if subBlockIndex % count == 0 { resumWindows() }
        let momentaryMeanSquare = momentaryEnergy / momentaryFrames
        let shortTermMeanSquare = shortTermEnergy / shortTermFrames
        maxMomentaryMeanSquare = max(maxMomentaryMeanSquare, momentaryMeanSquare)
        maxShortTermMeanSquare = max(maxShortTermMeanSquare, shortTermMeanSquare)
        guard subBlockIndex % Self.gatingStride == 0 else { return }
        range.add(meanSquare: shortTermMeanSquare)
        guard subBlockIndex >= Self.momentarySubBlocks else { return }
        let blockLoudness = Self.loudness(meanSquare: momentaryMeanSquare)
        if blockLoudness > Self.absoluteGate {
            let bin = min(Int((blockLoudness - Self.absoluteGate) * Self.binsPerLU), gatingBlocks.bins - 1)
            gatingBlocks.add(bin: bin, value: momentaryMeanSquare)
        }
    }

    /// The window sums again from the ring: the last `momentarySubBlocks` and all of it.
    private func resumWindows() {
        let count = Self.shortTermSubBlocks
        momentaryEnergy = 0
        momentaryFrames = 0
        for k in 1...Self.momentarySubBlocks {
            let slot = ((subBlockIndex - k) % count + count) % count
            momentaryEnergy += recentEnergy[slot]
            momentaryFrames += recentFrames[slot]
        }
        shortTermEnergy = recentEnergy.reduce(0, +)
        shortTermFrames = recentFrames.reduce(0, +)
    }

    static func loudness(meanSquare: Double) -> Double {
        meanSquare > 0 ? max(-0.691 + 10 * log10(meanSquare), Decibels.floor) : Decibels.floor
    }

    public var momentary: Double { Self.loudness(meanSquare: momentaryEnergy / momentaryFrames) }
    public var shortTerm: Double { Self.loudness(meanSquare: shortTermEnergy / shortTermFrames) }
    /// The highest momentary and short-term loudness since the last reset, on the 10 ms grid.
    public var maxMomentary: Double { Self.loudness(meanSquare: maxMomentaryMeanSquare) }
    public var maxShortTerm: Double { Self.loudness(meanSquare: maxShortTermMeanSquare) }
    /// Loudness range (EBU Tech 3342) since the last reset, LU.
    public var loudnessRange: Double { range.value }

    /// Per channel, the highest true peak of the current interval (linear).
    public func truePeak(channel c: Int) -> Double { truePeakStore[c] }

    /// Per channel, the highest true peak since the last reset (linear).
    public func maxTruePeak(channel c: Int) -> Double { max(earlierTruePeaks[c], truePeakStore[c]) }

    /// Gated integrated loudness of everything since the last reset; the floor until a
    /// block has passed the absolute gate.
    public var integrated: Double {
        let total = gatingBlocks.totalCount
        guard total > 0 else { return Decibels.floor }
        let gate = Self.loudness(meanSquare: gatingBlocks.totalSum / Double(total)) + Self.relativeGate
        let firstBin = max(0, Int(((gate - Self.absoluteGate) * Self.binsPerLU).rounded(.up)))
        let gatedOut = gatingBlocks.below(firstBin)
        let count = total - gatedOut.count
        return count > 0 ? Self.loudness(meanSquare: (gatingBlocks.totalSum - gatedOut.sum) / Double(count))
            : Decibels.floor
    }
}
