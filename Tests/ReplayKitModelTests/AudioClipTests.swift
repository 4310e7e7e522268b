// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing
@testable import ReplayKitModel

@Suite struct AudioClipTests {
    /// 5 stereo frames: left counts up, right down.
    static let clip = (0 ..< 5).flatMap { [Float($0) / 8, -Float($0) / 8] }

    static func render(_ audio: ProgramAudio, from first: Int64, count: Int, channels: Int) -> [Int16] {
        var out = [Int16](repeating: 7, count: count * channels)
        out.withUnsafeMutableBytes { audio.render(from: first, count: count, channels: channels, format: .s16le, into: $0.baseAddress!) }
        return out
    }

    @Test func aLoopingClipStartsAgainAtItsEnd() {
        let audio = ProgramAudio(clip: AudioClip(interleaved: Self.clip, channels: 2, rate: 48000, loops: true))
        let left = stride(from: 0, to: 14, by: 2).map { Self.render(audio, from: 3, count: 7, channels: 2)[$0] }
        #expect(left == [3, 4, 0, 1, 2, 3, 4].map { Int16($0 * 4096) })
        #expect(Self.render(audio, from: 1, count: 1, channels: 2) == [4096, -4096])
        #expect(audio.content == nil && audio.rate == 48000)
    }

    @Test func aClipThatEndsIsSilentAfterItAndLastsItsFrames() {
        let clip = AudioClip(interleaved: Self.clip, channels: 2, rate: 48000, loops: false)
        #expect(clip.frames == 5 && clip.duration == 104_166)
        #expect(Self.render(ProgramAudio(clip: clip), from: 3, count: 4, channels: 2) == [12288, -12288, 16384, -16384, 0, 0, 0, 0])
    }

    @Test func syncMarksGoOverAClipAsOverTheProgrammes() {
        let ones = [Float](repeating: 0.5, count: 48000 * 2)
        let marked = ProgramAudio(clip: AudioClip(interleaved: ones, channels: 1, rate: 48000, loops: true), syncMarks: true)
        let samples = Self.render(marked, from: 42000, count: 7000, channels: 1)
        // The mark at 1 s (frame 48000): 100 ms of silence before it, a 10 ms click from it.
        #expect(samples[0 ..< 1200].allSatisfy { $0 == 16384 } && samples[1200 ..< 6000].allSatisfy { $0 == 0 })
        #expect(samples[6000 ..< 6480].filter { $0 != 0 && $0 != 16384 }.count > 400)
        #expect(samples[6480 ..< 7000].allSatisfy { $0 == 16384 })
    }
}
