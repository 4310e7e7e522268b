// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import ReplayKitModel
import Testing

@Suite struct ProgramAudioTests {
    static func bytes(_ audio: ProgramAudio, from first: Int64, count: Int, channels: Int, format: SampleFormat) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count * channels * format.bytesPerSample)
        out.withUnsafeMutableBytes { audio.render(from: first, count: count, channels: channels, format: format, into: $0.baseAddress!) }
        return out
    }

    static func samples(_ audio: ProgramAudio, from first: Int64 = 0, count: Int, channels: Int) -> [Float] {
        var out = [Float](repeating: 0, count: count * channels)
        out.withUnsafeMutableBytes { audio.render(from: first, count: count, channels: channels, format: .f32le, into: $0.baseAddress!) }
        return out
    }

    /// dBFS RMS of channel `channel` of interleaved S16 samples over `frames`.
    static func rms(_ samples: [Int16], channels: Int, channel: Int, frames: some Sequence<Int>) -> Double {
        var power = 0.0, count = 0
        for frame in frames {
            let value = Double(samples[frame * channels + channel]) / 32768
            power += value * value
            count += 1
        }
        return 10 * log10(power / Double(count))
    }

    static func s16(_ audio: ProgramAudio, count: Int, channels: Int) -> [Int16] {
        var out = [Int16](repeating: 0, count: count * channels)
        out.withUnsafeMutableBytes { audio.render(from: 0, count: count, channels: channels, format: .s16le, into: $0.baseAddress!) }
        return out
    }

    @Test(arguments: [(ProgramAudio.Content.music, 2, SampleFormat.s16be), (.speech, 3, .s16le), (.speech, 1, .f32le)])
    func chunkingNeverChangesASample(stream: (ProgramAudio.Content, Int, SampleFormat)) {
        let (content, channels, format) = stream
        let audio = ProgramAudio(content, rate: 44100)
        // 1 s from 2.5 s in: crosses four eighth notes of music and the speech slot boundary at 3 s.
        let first: Int64 = 110_250, total = 44100
        let whole = Self.bytes(audio, from: first, count: total, channels: channels, format: format)
        let frameBytes = channels * format.bytesPerSample
        for sizes in [[22596], [1024, 1024, 955, 69], [1, 7, 64, 65, 4096], [total]] {
            var pieces: [UInt8] = []
            var done = 0, index = 0
            while done < total {
                let count = min(sizes[index % sizes.count], total - done)
                pieces += Self.bytes(audio, from: first + Int64(done), count: count, channels: channels, format: format)
                done += count
                index += 1
            }
            #expect(pieces == whole, "\(content) in chunks of \(sizes)")
        }
        // Random access: a window rendered on its own equals the same window of the whole.
        let window = Self.bytes(audio, from: first + 30000, count: 3000, channels: channels, format: format)
        #expect(window[...] == whole[30000 * frameBytes ..< 33000 * frameBytes])
    }

    @Test func bigEndianIsByteSwappedLittleEndian() {
        for content in ProgramAudio.Content.allCases {
            let audio = ProgramAudio(content, rate: 48000)
            let little = Self.bytes(audio, from: 12345, count: 4800, channels: 2, format: .s16le)
            let big = Self.bytes(audio, from: 12345, count: 4800, channels: 2, format: .s16be)
            let swapped = stride(from: 0, to: little.count, by: 2).flatMap { [little[$0 + 1], little[$0]] }
            #expect(big == swapped)
            #expect(little.contains { $0 != 0 })
        }
    }

    @Test func integerFormatsRoundTheFloatSignal() {
        let audio = ProgramAudio(.music, rate: 32000)
        let floats = Self.samples(audio, from: 5000, count: 2000, channels: 2)
        let ints = Self.bytes(audio, from: 5000, count: 2000, channels: 2, format: .s16le)
        for (index, value) in floats.enumerated() {
            let int = Int16(bitPattern: UInt16(ints[2 * index]) | UInt16(ints[2 * index + 1]) << 8)
            #expect(Float(int) == (value * 32768).rounded(.toNearestOrEven))
        }
    }

    @Test func musicLevelAndPeaksMatchTheDocumentation() {
        let rate = 16000
        // One whole 8 s loop.
        let stereo = Self.s16(ProgramAudio(.music, rate: rate), count: 8 * rate, channels: 2)
        let left = Self.rms(stereo, channels: 2, channel: 0, frames: 0 ..< 8 * rate)
        let right = Self.rms(stereo, channels: 2, channel: 1, frames: 0 ..< 8 * rate)
        let level = 10 * log10((pow(10, left / 10) + pow(10, right / 10)) / 2)
        #expect(abs(level - ProgramAudio.musicLevel) <= 1, "music at \(level) dBFS")
        let peak = 20 * log10(Double(stereo.map { abs(Int($0)) }.max()!) / 32768)
        #expect(peak < ProgramAudio.musicPeakCeiling, "music peaks at \(peak) dBFS")
        #expect(abs(left - right) < 1, "the sides are balanced")
    }

    @Test func musicIsStereoWithAMonoFoldDown() {
        let audio = ProgramAudio(.music, rate: 24000)
        let stereo = Self.samples(audio, from: 48000, count: 24000, channels: 2)
        let mono = Self.samples(audio, from: 48000, count: 24000, channels: 1)
        let three = Self.samples(audio, from: 48000, count: 24000, channels: 3)
        var difference: Float = 0
        for frame in 0 ..< 24000 {
            let l = stereo[2 * frame], r = stereo[2 * frame + 1]
            #expect(mono[frame] == 0.5 * (l + r))
            #expect(three[3 * frame] == l && three[3 * frame + 1] == r && three[3 * frame + 2] == mono[frame])
            difference = max(difference, abs(l - r))
        }
        #expect(difference > 0.05, "left and right differ")
    }

    @Test func speechLevelMatchesTheDocumentationAndPausesAreQuiet() {
        let rate = 16000
        let audio = ProgramAudio(.speech, rate: rate)
        let frames = 12 * rate
        let mono = Self.s16(audio, count: frames, channels: 1)
        let phrases = audio.speechPhrases(overlapping: 0 ..< Int64(frames))
        #expect(phrases.count == 4)
        let speaking = phrases.flatMap { Int($0.lowerBound) ..< Int($0.upperBound) }
        let level = Self.rms(mono, channels: 1, channel: 0, frames: speaking)
        #expect(abs(level - ProgramAudio.speechLevel) <= 1, "speech at \(level) dBFS")
        // 100 ms after each phrase's wavelet tails have died away: room noise only.
        let pauses = phrases.flatMap { Int($0.upperBound) + rate / 10 ..< Int($0.upperBound) + rate / 5 }
        let quiet = Self.rms(mono, channels: 1, channel: 0, frames: pauses)
        #expect(abs(quiet - ProgramAudio.roomNoiseLevel) < 3, "pauses at \(quiet) dBFS")
    }

    @Test func phrasesFillTheirSlots() {
        let rate = 8000
        let audio = ProgramAudio(.speech, rate: rate)
        let slot = Int64(ProgramAudio.speechSlotSeconds * Double(rate))
        let phrases = audio.speechPhrases(overlapping: 0 ..< 10 * slot)
        #expect(phrases.count == 10)
        for (index, phrase) in phrases.enumerated() {
            let slotStart = Int64(index) * slot
            #expect(phrase.lowerBound >= slotStart && phrase.upperBound <= slotStart + slot - slot / 40)
            #expect(phrase.count >= rate / 2, "at least four syllables")
        }
        #expect(audio.speechPhrases(overlapping: slot - 10 ..< slot + 10).isEmpty)
        #expect(ProgramAudio(.music, rate: rate).speechPhrases(overlapping: 0 ..< slot).isEmpty)
    }

    @Test func levelsDoNotDependOnTheRate() {
        var levels: [ProgramAudio.Content: [Double]] = [:]
        for rate in [8000, 96000] {
            let music = Self.s16(ProgramAudio(.music, rate: rate), count: rate, channels: 1)
            levels[.music, default: []].append(Self.rms(music, channels: 1, channel: 0, frames: 0 ..< rate))
            let speech = ProgramAudio(.speech, rate: rate)
            let phrase = speech.speechPhrases(overlapping: 0 ..< Int64(3 * rate))[0]
            let voice = Self.s16(speech, count: Int(phrase.upperBound), channels: 1)
            levels[.speech, default: []].append(Self.rms(voice, channels: 1, channel: 0,
                                                         frames: Int(phrase.lowerBound) ..< Int(phrase.upperBound)))
        }
        for (content, pair) in levels { #expect(abs(pair[0] - pair[1]) < 0.1, "\(content): \(pair)") }
    }

    @Test func multicamChannelsAreDelayedQuieterCopies() {
        let rate = 48000
        let audio = ProgramAudio(.speech, rate: rate)
        // 100 ms from the middle of the first phrase.
        let phrase = audio.speechPhrases(overlapping: 0 ..< Int64(rate))[0]
        let count = rate / 10, start = (phrase.lowerBound + phrase.upperBound) / 2
        let three = Self.samples(audio, from: start, count: count, channels: 3)
        let one = Self.samples(audio, from: start, count: count, channels: 1)
        let two = Self.samples(audio, from: start, count: count, channels: 2)
        let firstMatches = (0 ..< count).allSatisfy { (frame: Int) -> Bool in three[3 * frame] == one[frame] }
        let secondMatches = (0 ..< count).allSatisfy { (frame: Int) -> Bool in three[3 * frame + 1] == two[2 * frame + 1] }
        #expect(firstMatches && secondMatches)
        func channel(_ index: Int) -> [Float] { (0 ..< count).map { three[3 * $0 + index] } }
        let reference = channel(0)
        for (index, delay, gain) in [(1, 17, -2.0), (2, 34, -5.0)] {
            let copy = channel(index)
            let lags = 0 ... 60
            let correlations = lags.map { (lag: Int) -> Float in
                (lag ..< count).reduce(Float(0)) { (sum: Float, frame: Int) in sum + reference[frame - lag] * copy[frame] }
            }
            #expect(correlations.firstIndex(of: correlations.max()!) == delay)
            let copyEnergy: Float = copy.reduce(0) { $0 + $1 * $1 }
            let referenceEnergy: Float = reference.reduce(0) { $0 + $1 * $1 }
            let ratio = 10 * log10(Double(copyEnergy) / Double(referenceEnergy))
            #expect(abs(ratio - gain) < 0.1)
        }
    }
}
