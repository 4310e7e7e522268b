// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// Speech-like mic audio: phrases of voiced syllables separated by pauses.
///
/// Time is cut into 3 s slots; each slot holds one phrase of 4–8 syllables (140–260 ms,
/// 30–80 ms apart, pitch falling from about 140 to 105 Hz across the phrase and by 10 %
/// within each syllable), then silence until the slot ends. Half of the syllables open
/// with a 40 ms fricative hiss. Everything about a slot comes from a hash of its index,
/// so any instant can be rendered without rendering what came before.
///
/// Voicing is formant synthesis computed as overlap-add: each glottal pulse adds a copy of
/// its vowel's "wavelet", the response of three formant resonators (the vowel's F1–F3) to
/// one glottal flow-derivative pulse, worked out once per vowel and rate at init. Summing
/// shifted copies equals running the pulse train through the resonators, but makes every
/// output sample a pure function of its index.
struct SpeechProgram: Sendable {
    static let slotSeconds = 3.0
    /// Peterson & Barney's average adult male formants (Hz) for /a/, /e/, /i/, /o/, /u/.
    static let vowels: [[Double]] = [
        [730, 1090, 2440], [530, 1840, 2480], [270, 2290, 3010], [570, 840, 2410], [300, 870, 2240],
    ]
    static let bandwidths: [Double] = [70, 100, 150]
    static let waveletSeconds = 0.032
    static let fricativeSeconds = 0.040
    static let fricativeGain: Float = 0.12
    /// Brings voiced phrases to `ProgramAudio.speechLevel` (measured, see the level test).
    static let gain: Float = 1.6795

    struct Syllable {
        var start: Int64
        var voicedStart: Int64
        var end: Int64
        var vowel: Int
        /// Pulse k sits at voicedStart + round(firstPeriod·k + periodGrowth·k²) samples.
        var firstPeriod: Double
        var periodGrowth: Double
        var loudness: Float
        var fricativeEnd: Int64
    }

    let rate: Int
    let slotFrames: Int64
    /// One wavelet per vowel, `waveletLength` samples each, back to back.
    let wavelets: [Float]
    let waveletLength: Int
    let attackFrames: Double
    let releaseFrames: Double

    init(rate: Int) {
        self.rate = rate
        slotFrames = Int64((Self.slotSeconds * Double(rate)).rounded())
        waveletLength = Int((Self.waveletSeconds * Double(rate)).rounded())
        wavelets = Self.vowels.flatMap { Self.wavelet(formants: $0, rate: rate, length: Int((Self.waveletSeconds * Double(rate)).rounded())) }
        attackFrames = 0.030 * Double(rate)
        releaseFrames = 0.060 * Double(rate)
    }

    /// The response of a cascade of formant resonators to one glottal pulse, normalised to
    /// unit energy so every vowel is about as loud, and faded out over its last quarter.
    static func wavelet(formants: [Double], rate: Int, length: Int) -> [Float] {
        let period = 1 / Double(rate)
        // Glottal flow: 2.4 ms raised-cosine opening, 1.2 ms quarter-cosine closing; the
        // differenced flow is what the lips radiate.
        let opening = 0.0024 * Double(rate), closing = 0.0012 * Double(rate)
        func flow(_ i: Double) -> Double {
            if i <= 0 { return 0 }
            if i < opening { return 0.5 * (1 - cos(Double.pi * i / opening)) }
            if i < opening + closing { return cos(Double.pi / 2 * (i - opening) / closing) }
            return 0
        }
        var signal = (0 ..< length).map { flow(Double($0)) - flow(Double($0) - 1) }
        for (formant, bandwidth) in zip(formants, bandwidths) where formant < 0.45 * Double(rate) {
            // Two-pole resonator with unity gain at 0 Hz, as in Klatt's cascade synthesiser.
            let c = -exp(-2 * Double.pi * bandwidth * period)
            let b = 2 * exp(-Double.pi * bandwidth * period) * cos(2 * Double.pi * formant * period)
            let a = 1 - b - c
            var y1 = 0.0, y2 = 0.0
            for index in signal.indices {
                let y = a * signal[index] + b * y1 + c * y2
                y2 = y1
                y1 = y
                signal[index] = y
            }
        }
        let fadeStart = length * 3 / 4
        for index in fadeStart ..< length {
            signal[index] *= 0.5 * (1 + cos(Double.pi * Double(index - fadeStart) / Double(length - fadeStart)))
        }
        let energy = signal.reduce(0) { $0 + $1 * $1 }
        // Unit energy per second of rate, so loudness does not depend on the sample rate.
        let scale = energy > 0 ? (Double(rate) / 48000 / energy).squareRoot() : 0
        return signal.map { Float($0 * scale) }
    }

    /// Calls `body` with each syllable of slot `slot`, in time order; nothing is stored, so
    /// rendering allocates nothing.
    func forEachSyllable(inSlot slot: Int64, _ body: (Syllable) -> Void) {
        var random = Scramble.mix(UInt64(bitPattern: slot) ^ 0x5EEC_4000)
        func next() -> Double {
            random = Scramble.mix(random)
            return Scramble.unit(random)
        }
        let rate = Double(self.rate)
        let slotStart = Double(slot) * Self.slotSeconds
        let count = 4 + Int(next() * 5)
        var seconds = slotStart + 0.05 + 0.15 * next()
        for index in 0 ..< count {
            let length = 0.14 + 0.12 * next()
            let fricative = next() < 0.5
            let declination = 140 - 35 * Double(index) / Double(count - 1)
            let pitch = declination + 16 * (next() - 0.5)
            let voicedStart = seconds + (fricative ? 0.03 : 0)
            let voicedFrames = (seconds + length - voicedStart) * rate
            let firstPeriod = rate / pitch
            let loudness = Float(0.8 + 0.2 * next())
            let vowel = Int(next() * Double(Self.vowels.count))
            body(Syllable(
                start: Int64((seconds * rate).rounded()),
                voicedStart: Int64((voicedStart * rate).rounded()),
                end: Int64(((seconds + length) * rate).rounded()),
                vowel: vowel,
                firstPeriod: firstPeriod,
                // The period grows by 10 % over the syllable: d/dk (p·k + g·k²) = 1.1·p at its end.
                periodGrowth: 0.05 * firstPeriod * firstPeriod / voicedFrames,
                loudness: loudness,
                fricativeEnd: fricative ? Int64(((seconds + Self.fricativeSeconds) * rate).rounded()) : Int64((seconds * rate).rounded())))
            seconds += length + 0.03 + 0.05 * next()
        }
    }

    /// Where slot `slot`'s phrase is: its first syllable's start to its last one's end.
    func phrase(inSlot slot: Int64) -> Range<Int64> {
        var start: Int64?, end: Int64 = 0
        forEachSyllable(inSlot: slot) { syllable in
            start = start ?? syllable.start
            end = syllable.end
        }
        return start! ..< end
    }

    /// Adds frames `first ..< first + count` of the voice into `output` (which the caller
    /// zeroes). Negative frames are silence.
    func render(from first: Int64, count: Int, into output: UnsafeMutablePointer<Float>) {
        let end = first + Int64(count)
        guard end > 0 else { return }
        let length = Int64(waveletLength)
        // A phrase ends ≥ 80 ms before its slot does, so wavelet tails never cross into
        // the next slot; only slots overlapping the range matter.
        let firstSlot = max(0, first) / slotFrames
        let lastSlot = (end - 1) / slotFrames
        wavelets.withUnsafeBufferPointer { wavelets in
            for slot in firstSlot ... lastSlot {
                forEachSyllable(inSlot: slot) { syllable in
                    guard syllable.start < end && syllable.end + length > first else { return }
                    addPulses(of: syllable, first: first, end: end, wavelets: wavelets, output: output)
                    addFricative(of: syllable, first: first, end: end, output: output)
                }
            }
        }
    }

    private func addPulses(of syllable: Syllable, first: Int64, end: Int64, wavelets: UnsafeBufferPointer<Float>,
                           output: UnsafeMutablePointer<Float>) {
        let length = Int64(waveletLength)
        let wavelet = wavelets.baseAddress! + syllable.vowel * waveletLength
        let voiced = Double(syllable.end - syllable.voicedStart)
        var pulse = 0
        while true {
            let k = Double(pulse)
            let offset = syllable.firstPeriod * k + syllable.periodGrowth * k * k
            guard offset < voiced else { break }
            pulse += 1
            let at = syllable.voicedStart + Int64(offset.rounded())
            guard at < end else { break }
            guard at + length > first else { continue }
            // Raised-cosine onset and fade-out of the syllable, sampled once per pulse.
            let attack = min(1, offset / attackFrames), release = min(1, (voiced - offset) / releaseFrames)
            let shape = Float(0.5 - 0.5 * cos(Double.pi * attack)) * Float(0.5 - 0.5 * cos(Double.pi * release))
            let amplitude = shape * syllable.loudness * Self.gain
            let from = max(first, at), to = min(end, at + length)
            let out = output + Int(from - first), source = wavelet + Int(from - at)
            for index in 0 ..< Int(to - from) { out[index] += amplitude * source[index] }
        }
    }

    private func addFricative(of syllable: Syllable, first: Int64, end: Int64, output: UnsafeMutablePointer<Float>) {
        let from = max(first, syllable.start), to = min(end, syllable.fricativeEnd)
        guard from < to else { return }
        let span = Double(syllable.fricativeEnd - syllable.start)
        var previous = Oscillator.noise(from - 1, seed: 2)
        for n in from ..< to {
            let noise = Oscillator.noise(n, seed: 2)
            let envelope = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(n - syllable.start) / span))
            output[Int(n - first)] += (noise - previous) * envelope * Self.fricativeGain * Self.gain
            previous = noise
        }
    }
}
