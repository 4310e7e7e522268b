// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

import Glibc

/// Deterministic programme content for the emulated audio streams, addressed by sample
/// index: rendering frames `n ..< n + count` gives the same samples however a stream is cut
/// into buffers, paused, resumed or re-rendered. Content is defined in seconds, so other
/// rates only sample it differently. Value type, no locks, no allocation while rendering.
///
/// - `music` (app audio): see `MusicProgram`. About −18 dBFS RMS (per channel, mean power
///   over whole 8 s loops), peaks below −3 dBFS. Channels: 1 = (L+R)/2, 2 = L, R,
///   3 = L, R, (L+R)/2.
/// - `speech` (mic): see `SpeechProgram`. About −24 dBFS RMS over each phrase (first
///   syllable onset to last syllable end; a phrase every 3 s) in channel 0. Channels model
///   the three built-in mics of a multicam capture: 0 = the reference mic, 1 = the same
///   voice 0.35 ms later and 2 dB quieter, 2 = 0.7 ms later and 5 dB quieter; each channel
///   also carries its own room noise at −70 dBFS RMS, so "no speech" is quiet, not digital
///   silence. 1 or 2 channels are the first of these.
public struct ProgramAudio: Sendable {
    public enum Content: String, Sendable, CaseIterable {
        case music, speech
    }

    public static let rates = 8000 ... 96000
    public static let channelCounts = 1 ... 3
    /// dBFS RMS, as described above.
    public static let musicLevel = -18.0
    public static let musicPeakCeiling = -3.0
    public static let speechLevel = -24.0
    public static let roomNoiseLevel = -70.0
    public static let speechSlotSeconds = SpeechProgram.slotSeconds

    static let micDelaySeconds = [0, 0.00035, 0.0007]
    static let micGainsDB = [0.0, -2, -5]
    /// Frames per internal block: three Float planes of it fit the 1 KiB the standard
    /// library guarantees to place on the stack.
    static let block = 64

    private enum Generator: Sendable {
        case music(MusicProgram)
        case speech(SpeechProgram)
        case clip(AudioClip)
    }

    /// Nil when a clip from a file plays instead.
    public let content: Content?
    public let rate: Int
    /// Whether `SyncMarks` are drawn over the programme.
    public let syncMarks: Bool
    private let generator: Generator
    private let micDelays: [Int64]
    private let micGains: [Float]
    private let roomNoiseAmplitude: Float

    public init(_ content: Content, rate: Int, syncMarks: Bool = false) {
        precondition(Self.rates.contains(rate), "ProgramAudio renders 8–96 kHz")
        self.content = content
        self.rate = rate
        self.syncMarks = syncMarks
        switch content {
        case .music: generator = .music(MusicProgram(rate: rate))
        case .speech: generator = .speech(SpeechProgram(rate: rate))
        }
        micDelays = Self.micDelaySeconds.map { Int64(($0 * Double(rate)).rounded()) }
        micGains = Self.micGainsDB.map { Float(pow(10, $0 / 20)) }
        // Uniform noise in [-1, 1) has an RMS of 1/√3.
        roomNoiseAmplitude = Float(pow(10, Self.roomNoiseLevel / 20) * 3.0.squareRoot())
    }

    /// A file's audio instead of a programme, at the clip's rate; sync marks as for a programme.
    public init(clip: AudioClip, syncMarks: Bool = false) {
        content = nil
        rate = clip.rate
        self.syncMarks = syncMarks
        generator = .clip(clip)
        micDelays = []
        micGains = []
        roomNoiseAmplitude = 0
    }

    /// Writes frames `first ..< first + count` as interleaved `channels`-channel samples in
    /// `format` to `destination`, which must hold `count · channels` samples. `first` ≥ 0.
    public func render(from first: Int64, count: Int, channels: Int, format: SampleFormat,
                       into destination: UnsafeMutableRawPointer) {
        precondition(first >= 0 && count >= 0, "frames are counted from 0")
        precondition(Self.channelCounts.contains(channels), "ProgramAudio renders 1–3 channels")
        let bytesPerFrame = channels * format.bytesPerSample
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * Self.block) { scratch in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: 3) { planes in
                for channel in 0 ..< 3 { planes[channel] = scratch.baseAddress! + channel * Self.block }
                var done = 0
                while done < count {
                    let frames = min(Self.block, count - done)
                    let start = first + Int64(done)
                    switch generator {
                    case .music(let music):
                        renderMusic(music, from: start, frames: frames, channels: channels, planes: planes.baseAddress!)
                    case .speech(let speech):
                        renderSpeech(speech, from: start, frames: frames, channels: channels, planes: planes.baseAddress!)
                    case .clip(let clip):
                        for channel in 0 ..< channels { clip.render(from: start, count: frames, channel: channel, into: planes[channel]) }
                    }
                    if syncMarks {
                        SyncMarks.overlay(planes: planes.baseAddress!, channels: channels, from: start, frames: frames, rate: rate)
                    }
                    SampleStore.store(planes.baseAddress!, channels: channels, frames: frames, format: format,
                                      into: destination + done * bytesPerFrame)
                    done += frames
                }
            }
        }
    }

    private func renderMusic(_ music: MusicProgram, from first: Int64, frames: Int, channels: Int,
                             planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>) {
        let left = planes[0], right = planes[1]
        music.render(from: first, count: frames, left: left, right: right)
        let mono = channels == 1 ? left : planes[2]
        if channels != 2 {
            for index in 0 ..< frames { mono[index] = 0.5 * (left[index] + right[index]) }
        }
    }

    private func renderSpeech(_ speech: SpeechProgram, from first: Int64, frames: Int, channels: Int,
                              planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>) {
        for channel in 0 ..< channels {
            let plane = planes[channel]
            plane.update(repeating: 0, count: frames)
            speech.render(from: first - micDelays[channel], count: frames, into: plane)
            let gain = micGains[channel], seed = UInt64(16 + channel)
            for index in 0 ..< frames {
                plane[index] = plane[index] * gain + Oscillator.noise(first + Int64(index), seed: seed) * roomNoiseAmplitude
            }
        }
    }

    /// The spans of frames holding a speech phrase that overlap `range` (speech only): where
    /// a meter should read `speechLevel`, or a ducking mixer should duck.
    public func speechPhrases(overlapping range: Range<Int64>) -> [Range<Int64>] {
        guard case .speech(let speech) = generator, !range.isEmpty else { return [] }
        let firstSlot = max(0, range.lowerBound) / speech.slotFrames
        let lastSlot = max(0, range.upperBound - 1) / speech.slotFrames
        return (firstSlot ... lastSlot).map { speech.phrase(inSlot: $0) }.filter { $0.overlaps(range) }
    }
}
