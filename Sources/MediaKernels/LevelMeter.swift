// SPDX-License-Identifier: LGPL-2.1-or-later
/// What a meter measured over one interval. The buffers are the meter's own storage,
/// valid only while the report callback runs.
public struct LevelReport {
    /// First frame of the interval, counted from the meter's last restart.
    public var startFrame: Int64
    public var frames: Int
    /// Per channel, dBFS (floored at Decibels.floor).
    public var rms: UnsafeBufferPointer<Double>
    public var peak: UnsafeBufferPointer<Double>
    public var decay: UnsafeBufferPointer<Double>
    /// 10·log10 of the mean square over all channels in 16-bit sample units (the loudness
    /// value iOS screen-recording code computes): about 90.3 for a full-scale square wave.
    public var volume: Double
    public var loudness: Loudness?

    public struct Loudness {
        public var momentary: Double
        public var shortTerm: Double
        public var integrated: Double
        /// Since the last loudness reset, LUFS.
        public var maxMomentary: Double
        public var maxShortTerm: Double
        /// EBU Tech 3342 loudness range since the last loudness reset, LU.
        public var range: Double
        /// Per channel, dBTP, highest over this interval.
        public var truePeak: UnsafeBufferPointer<Double>
        /// Per channel, dBTP, highest since the last loudness reset.
        public var maxTruePeak: UnsafeBufferPointer<Double>
    }
}

/// Splits a stream into intervals that are exact in samples, whatever the buffer sizes,
/// and measures each: rms, peak, level's decaying peak, app-style volume and, when asked
/// for, EBU R128 loudness. All storage is allocated at init (once per caps).
public final class LevelMeter {
    public struct Settings: Equatable, Sendable {
        public var intervalFrames: Int
        public var peakTTLNanoseconds: UInt64
        public var peakFalloff: Double
        public var loudness: Bool

        public init(intervalFrames: Int, peakTTLNanoseconds: UInt64, peakFalloff: Double, loudness: Bool) {
            self.intervalFrames = max(1, intervalFrames)
            self.peakTTLNanoseconds = peakTTLNanoseconds
            self.peakFalloff = peakFalloff
            self.loudness = loudness
        }
    }

    public let format: SampleFormat
    public let rate: Int
    public let channels: Int
    // Read for every buffer by the streaming thread, its only user.
    @exclusivity(unchecked) public var settings: Settings {
        didSet {
            if settings.loudness && !oldValue.loudness { loudnessMeter?.reset() }
            if settings.loudness && loudnessMeter == nil {
                loudnessMeter = LoudnessMeter(format: format, rate: rate, roles: roles)
            }
        }
    }

    let kernel: ChannelLevelKernel
    let roles: [KWeighting.ChannelRole]
    /// Created when loudness is first asked for: its gating histogram is the largest allocation here.
    var loudnessMeter: LoudnessMeter?
    @exclusivity(unchecked) var decays: [DecayingPeak]
    /// Raw-unit accumulators of the interval in progress, then the report's dB values.
    let storage: UnsafeMutablePointer<Double>
    // Touched by one streaming thread only; dynamic exclusivity checks on these per-buffer
    // counters cost more than the interval bookkeeping itself.
    @exclusivity(unchecked) var intervalStart: Int64 = 0
    @exclusivity(unchecked) var intervalFrames = 0
    @exclusivity(unchecked) var ageFrames = 0
    @exclusivity(unchecked) var ageNanoseconds: UInt64 = 0

    public init(format: SampleFormat, rate: Int, roles: [KWeighting.ChannelRole], settings: Settings) {
        self.format = format
        self.rate = rate
        channels = roles.count
        self.settings = settings
        kernel = ChannelLevelKernel(format: format, channels: roles.count)
        self.roles = roles
        loudnessMeter = settings.loudness ? LoudnessMeter(format: format, rate: rate, roles: roles) : nil
        decays = Array(repeating: DecayingPeak(), count: roles.count)
        storage = .allocate(capacity: 8 * roles.count)
        storage.initialize(repeating: 0, count: 8 * roles.count)
    }

    deinit { storage.deallocate() }

    private var sums: UnsafeMutablePointer<Double> { storage }
    private var peaks: UnsafeMutablePointer<Double> { storage + channels }
    private var rmsOut: UnsafeMutablePointer<Double> { storage + 2 * channels }
    private var peakOut: UnsafeMutablePointer<Double> { storage + 3 * channels }
    private var decayOut: UnsafeMutablePointer<Double> { storage + 4 * channels }
    private var truePeakOut: UnsafeMutablePointer<Double> { storage + 5 * channels }
    private var maxTruePeakOut: UnsafeMutablePointer<Double> { storage + 6 * channels }
    private var blockPeaks: UnsafeMutablePointer<Double> { storage + 7 * channels }

    /// Whether the level kernel runs its AVX2 + FMA loops (else baseline x86-64).
    public var usesAVX2: Bool { kernel.usesAVX2 }

    /// Frames measured since the last restart.
    public var measuredFrames: Int64 { intervalStart + Int64(intervalFrames) }

    /// Measures `frames` interleaved frames; `report` runs for every interval completed.
    public func process(_ samples: UnsafeRawPointer, frames: Int, report: (LevelReport) -> Void) {
        feed(samples, frames: frames, report: report)
    }

    /// Counts `frames` of silence (GAP buffers) without reading memory.
    public func processSilence(frames: Int, report: (LevelReport) -> Void) {
        feed(nil, frames: frames, report: report)
    }

    private func feed(_ samples: UnsafeRawPointer?, frames: Int, report: (LevelReport) -> Void) {
        var done = 0
        while done < frames {
            let count = min(settings.intervalFrames - intervalFrames, frames - done)
            if count > 0 {
                if let samples {
                    let first = samples + done * channels * format.bytesPerSample
                    kernel.add(first, frames: count)
                    kernel.takePeaks(blockPeaks)
                    if settings.loudness { loudnessMeter?.process(first, frames: count) }
                } else {
                    for c in 0..<channels { blockPeaks[c] = 0 }
                    if settings.loudness { loudnessMeter?.process(nil, frames: count) }
                }
                foldDecays(age: age(ofFrames: frames - done))
                done += count
                intervalFrames += count
            }
            if intervalFrames >= settings.intervalFrames { emit(report) }
        }
    }

    /// framesToNanoseconds for the decay's age, remembered: buffers mostly keep one size,
    /// and the exact conversion divides a 128-bit product.
    private func age(ofFrames frames: Int) -> UInt64 {
        if frames != ageFrames {
            ageFrames = frames
            ageNanoseconds = framesToNanoseconds(Int64(frames))
        }
        return ageNanoseconds
    }

    /// level's per-block step: the block's peaks into the interval's and into the decaying
    /// peaks, aged by the frames left in the buffer (level's accounting).
    private func foldDecays(age: UInt64) {
        let scale = format.fullScale
        for c in 0..<channels {
            peaks[c] = max(peaks[c], blockPeaks[c])
            let amplitude = blockPeaks[c] / scale
            decays[c].fold(peakPower: amplitude * amplitude, age: age, ttlNanoseconds: settings.peakTTLNanoseconds,
                           falloffDecibelsPerSecond: settings.peakFalloff)
        }
    }

    /// Reports the interval in progress if it holds any frames (end of stream, discontinuity).
    public func flush(report: (LevelReport) -> Void) {
        if intervalFrames > 0 { emit(report) }
    }

    /// Drops the interval in progress and restarts frame counting at `startFrame`.
    public func restart(at startFrame: Int64 = 0) {
        intervalStart = startFrame
        intervalFrames = 0
        kernel.drain(sumsOfSquares: sums, peaks: peaks)
        for c in 0..<(2 * channels) { storage[c] = 0 }
        loudnessMeter?.resetTruePeaks()
    }

    /// A new programme: integrated loudness, loudness range and the maxima start again
    /// (levels and decaying peaks go on).
    public func resetLoudness() {
        loudnessMeter?.resetProgramme()
    }

    /// Forgets all history: decaying peaks and loudness too.
    public func reset() {
        restart()
        decays = Array(repeating: DecayingPeak(), count: channels)
        loudnessMeter?.reset()
    }

    private func emit(_ report: (LevelReport) -> Void) {
        let frames = intervalFrames
        let scale = format.fullScale
        kernel.drain(sumsOfSquares: sums, peaks: peaks)
        var meanSquareAll = 0.0
        for c in 0..<channels {
            let meanSquare = sums[c] / Double(frames) / (scale * scale)
            meanSquareAll += meanSquare
            let peakPower = (peaks[c] / scale) * (peaks[c] / scale)
            rmsOut[c] = Decibels.fromPower(meanSquare)
            peakOut[c] = Decibels.fromPower(peakPower)
            decayOut[c] = Decibels.fromPower(decays[c].report(intervalPeakPower: peakPower))
        }
        let volume = Decibels.fromPower(meanSquareAll / Double(channels)) + Self.sixteenBitFullScaleDecibels
        var loudness: LevelReport.Loudness?
        if settings.loudness, let loudnessMeter {
            for c in 0..<channels {
                truePeakOut[c] = Decibels.fromAmplitude(loudnessMeter.truePeak(channel: c))
                maxTruePeakOut[c] = Decibels.fromAmplitude(loudnessMeter.maxTruePeak(channel: c))
            }
            loudness = .init(momentary: loudnessMeter.momentary, shortTerm: loudnessMeter.shortTerm,
                             integrated: loudnessMeter.integrated, maxMomentary: loudnessMeter.maxMomentary,
                             maxShortTerm: loudnessMeter.maxShortTerm, range: loudnessMeter.loudnessRange,
                             truePeak: UnsafeBufferPointer(start: truePeakOut, count: channels),
                             maxTruePeak: UnsafeBufferPointer(start: maxTruePeakOut, count: channels))
        }
        report(LevelReport(
            startFrame: intervalStart, frames: frames,
            rms: UnsafeBufferPointer(start: rmsOut, count: channels),
            peak: UnsafeBufferPointer(start: peakOut, count: channels),
            decay: UnsafeBufferPointer(start: decayOut, count: channels),
            volume: volume, loudness: loudness))
        restart(at: intervalStart + Int64(frames))
    }

    /// 20·log10(32768): converts dBFS to the 16-bit units of the `volume` value.
    public static let sixteenBitFullScaleDecibels = 90.30899869919435

    /// Duration of `frames` rounded to the nearest nanosecond, as GStreamer's
    /// GST_FRAMES_TO_CLOCK_TIME computes it.
    public func framesToNanoseconds(_ frames: Int64) -> UInt64 {
        Timebase.nanoseconds(UInt64(frames), atRate: UInt64(rate), .nearest)
    }
}
