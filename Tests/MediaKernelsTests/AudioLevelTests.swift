// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

/// RFC 6464 levels as GStreamer's level writes them into GstAudioLevelMeta, held to 0…127.
@Suite struct AudioLevelTests {
    @Test func fromMeanSquare() {
        #expect(AudioLevel.level(meanSquare: 1) == 0)
        #expect(AudioLevel.level(meanSquare: 0.5) == 3)       // 3.01 dB down
        #expect(AudioLevel.level(meanSquare: 0.25) == 6)      // 6.02
        #expect(AudioLevel.level(meanSquare: 0.01) == 20)     // exactly 20 dB: a whole dB stays whole
        #expect(AudioLevel.level(meanSquare: 2e-12) == 116)   // 116.99: cut, not rounded
        #expect(AudioLevel.level(meanSquare: 2.2e-13) == 126) // 126.58
        #expect(AudioLevel.level(meanSquare: 1.8e-13) == 127) // 127.45
        #expect(AudioLevel.level(meanSquare: 1e-13) == 127)   // 130 dB down: the quietest the field holds
        #expect(AudioLevel.level(meanSquare: 0) == 127)        // level's cast gives 187 (700 mod 256)
        #expect(AudioLevel.level(meanSquare: 4) == 0)          // above full scale; level's cast gives 250
    }

    /// level's own unit test (tests/check/elements/level.c): S16 stereo of 16536 reads 5.
    @Test func levelsUnitTestBuffer() {
        let samples = [Int16](repeating: 16536, count: 200)
        let level = AudioLevel(format: .s16le)
        #expect(samples.withUnsafeBytes { level.measure($0.baseAddress!, count: 200) } == 5)
    }

    /// Every sample counts alike whatever its channel: 12 channels, one at -64 (S8) and the
    /// rest silent, is a mean square of 1/4 · 1/12 → 16.8 dB down → 16; and enough frames
    /// (4801 × 12 samples) to pass through the lanes' periodic flushes.
    @Test func allChannelsTogether() {
        var samples = [Int8](repeating: 0, count: 4801 * 12)
        for frame in 0..<4801 { samples[frame * 12 + 5] = -64 }
        let level = AudioLevel(format: .s8)
        #expect(samples.withUnsafeBytes { level.measure($0.baseAddress!, count: samples.count) } == 16)
        // The same call again: nothing carried over from the last buffer.
        #expect(samples.withUnsafeBytes { level.measure($0.baseAddress!, count: samples.count) } == 16)
    }

    @Test func fullScaleSilenceAndEmpty() {
        let level = AudioLevel(format: .f32le)
        let full = [Float](repeating: -1, count: 96), over = [Float](repeating: 2, count: 96)
        let zeros = [Float](repeating: 0, count: 96)
        #expect(full.withUnsafeBytes { level.measure($0.baseAddress!, count: 96) } == 0)
        #expect(over.withUnsafeBytes { level.measure($0.baseAddress!, count: 96) } == 0)
        #expect(zeros.withUnsafeBytes { level.measure($0.baseAddress!, count: 96) } == 127)
        #expect(zeros.withUnsafeBytes { level.measure($0.baseAddress!, count: 0) } == 127)
        let s8 = AudioLevel(format: .s8)
        let minimum = [Int8](repeating: -128, count: 33)
        #expect(minimum.withUnsafeBytes { s8.measure($0.baseAddress!, count: 33) } == 0)
    }
}
