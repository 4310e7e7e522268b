// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// Pop-like app audio: C–G–Am–F at 120 bpm, one chord per 2 s bar (an 8 s loop), as a
/// sustained three-voice pad, a plucked bass on every beat, a plucked arpeggio in eighths
/// alternating left and right, and a soft noise hat on the off-beats.
///
/// Stereo: the pad's third leans left and its fifth right, the arpeggio alternates sides,
/// bass is centred, the hat leans right. The level (`ProgramAudio.musicLevel`) is set by
/// `gain`, measured over whole loops.
struct MusicProgram: Sendable {
    static let eighthsPerSecond: Int64 = 4
    static let eighthsPerBar: Int64 = 8
    static let chords: [(pad: [Int], bass: Int, arpeggio: [Int])] = [
        ([60, 64, 67], 36, [72, 76, 79, 84]), // C
        ([59, 62, 67], 43, [67, 71, 74, 79]), // G (B3 D4 G4 for smooth voice leading)
        ([57, 60, 64], 45, [69, 72, 76, 81]), // Am
        ([57, 60, 65], 41, [65, 69, 72, 77]), // F (A3 C4 F4)
    ]
    /// Which arpeggio note (root, third, fifth, octave) each eighth of a bar plays.
    static let arpeggioPattern = [0, 1, 2, 3, 2, 1, 0, 1]
    static let padVoiceGain: Float = 0.10
    static let bassGain: Float = 0.30
    static let arpeggioGain: Float = 0.16
    static let hatGain: Float = 0.05
    /// Brings the mix to `ProgramAudio.musicLevel` (measured, see the level test).
    static let gain: Float = 1.0823

    /// Envelopes over one beat (bass) or one eighth (arpeggio, hat), from the onset.
    static let bassEnvelope = Oscillator.Curve { pluck(seconds: $0 * 0.5, length: 0.5, attack: 0.004, decay: 0.16) }
    static let arpeggioEnvelope = Oscillator.Curve { pluck(seconds: $0 * 0.25, length: 0.25, attack: 0.003, decay: 0.06) }
    static let hatEnvelope = Oscillator.Curve { pluck(seconds: $0 * 0.25, length: 0.25, attack: 0.001, decay: 0.02) }

    /// Fast linear attack, exponential decay, and a short fade to exactly zero at the end so
    /// the next note starts clean.
    static func pluck(seconds t: Double, length: Double, attack: Double, decay: Double) -> Double {
        min(1, t / attack) * exp(-t / decay) * min(1, max(0, (length - t) / 0.01))
    }

    let rate: Int
    let padIncrements: [[UInt32]]
    let bassIncrements: [UInt32]
    let arpeggioIncrements: [[UInt32]]

    init(rate: Int) {
        self.rate = rate
        let increment = { (note: Int) in Oscillator.increment(frequency: noteFrequency(note), rate: rate) }
        padIncrements = Self.chords.map { $0.pad.map(increment) }
        bassIncrements = Self.chords.map { increment($0.bass) }
        arpeggioIncrements = Self.chords.map { $0.arpeggio.map(increment) }
    }

    /// Frames `first ..< first + count` of the left and right channels.
    func render(from first: Int64, count: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        let rate64 = Int64(rate)
        // Eighth-note clock as an exact fraction: eighth = ⌊4n / rate⌋, remainder 4n mod rate.
        var eighth = first * Self.eighthsPerSecond / rate64
        var remainder = Int(first * Self.eighthsPerSecond % rate64)
        let inverseRate = 1 / Float(rate)
        var pad0: UInt32 = 0, pad1: UInt32 = 0, pad2: UInt32 = 0, bass: UInt32 = 0, arpeggio: UInt32 = 0
        var padStep = (UInt32(0), UInt32(0), UInt32(0)), bassStep: UInt32 = 0, arpeggioStep: UInt32 = 0
        var arpeggioLeft: Float = 0, arpeggioRight: Float = 0, hatOn: Float = 0, eighthInBar: Float = 0
        var beatHalf: Float = 0
        var previousNoise = Oscillator.noise(first - 1, seed: 1)

        Self.withTables { table, bassCurve, arpeggioCurve, hatCurve in
            // Sets every note-dependent value for the eighth that frame n falls in; phases
            // are recomputed from n, never carried over, so chunking cannot change them.
            func enterEighth(_ n: Int64) {
                let chord = Int(eighth / Self.eighthsPerBar % 4)
                let position = Int(eighth % Self.eighthsPerBar)
                let pads = padIncrements[chord]
                padStep = (pads[0], pads[1], pads[2])
                bassStep = bassIncrements[chord]
                arpeggioStep = arpeggioIncrements[chord][Self.arpeggioPattern[position]]
                pad0 = Oscillator.phase(at: n, increment: padStep.0)
                pad1 = Oscillator.phase(at: n, increment: padStep.1)
                pad2 = Oscillator.phase(at: n, increment: padStep.2)
                bass = Oscillator.phase(at: n, increment: bassStep)
                arpeggio = Oscillator.phase(at: n, increment: arpeggioStep)
                let even = position % 2 == 0
                arpeggioLeft = even ? 0.8 : 0.2
                arpeggioRight = even ? 0.2 : 0.8
                hatOn = even ? 0 : 1
                beatHalf = even ? 0 : 0.5
                eighthInBar = Float(position)
            }
            enterEighth(first)
            for index in 0 ..< count {
                let n = first + Int64(index)
                let withinEighth = Float(remainder) * inverseRate
                // Pad: 100 ms swell at the start of each bar, 150 ms fade at its end.
                let barSeconds = (eighthInBar + withinEighth) * 0.25
                let padEnvelope = min(1, barSeconds * 10, (2 - barSeconds) * (1 / 0.15))
                let p0 = Oscillator.sample(table, pad0), p1 = Oscillator.sample(table, pad1)
                let p2 = Oscillator.sample(table, pad2)
                let padGain = padEnvelope * Self.padVoiceGain
                let bassValue = Oscillator.sample(table, bass) * Self.bassGain
                    * Oscillator.Curve.sample(bassCurve, beatHalf + withinEighth * 0.5)
                let arpeggioValue = Oscillator.sample(table, arpeggio) * Self.arpeggioGain
                    * Oscillator.Curve.sample(arpeggioCurve, withinEighth)
                // Differenced white noise: a bright, hat-like hiss.
                let noise = Oscillator.noise(n, seed: 1)
                let hat = (noise - previousNoise) * hatOn * Self.hatGain * Oscillator.Curve.sample(hatCurve, withinEighth)
                previousNoise = noise
                left[index] = Self.gain * (padGain * (0.5 * p0 + 0.7 * p1 + 0.3 * p2) + bassValue
                    + arpeggioLeft * arpeggioValue + 0.4 * hat)
                right[index] = Self.gain * (padGain * (0.5 * p0 + 0.3 * p1 + 0.7 * p2) + bassValue
                    + arpeggioRight * arpeggioValue + 0.6 * hat)

                pad0 &+= padStep.0
                pad1 &+= padStep.1
                pad2 &+= padStep.2
                bass &+= bassStep
                arpeggio &+= arpeggioStep
                remainder += Int(Self.eighthsPerSecond)
                if remainder >= rate {
                    remainder -= rate
                    eighth += 1
                    enterEighth(n + 1)
                }
            }
        }
    }

    /// The lookup tables as unchecked pointers, for the per-sample loop.
    private static func withTables(_ body: (_ tone: UnsafeBufferPointer<Float>, _ bass: UnsafeBufferPointer<Float>,
                                            _ arpeggio: UnsafeBufferPointer<Float>, _ hat: UnsafeBufferPointer<Float>) -> Void) {
        Oscillator.table.withUnsafeBufferPointer { tone in
            bassEnvelope.values.withUnsafeBufferPointer { bass in
                arpeggioEnvelope.values.withUnsafeBufferPointer { arpeggio in
                    hatEnvelope.values.withUnsafeBufferPointer { hat in body(tone, bass, arpeggio, hat) }
                }
            }
        }
    }
}
