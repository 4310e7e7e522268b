// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayKitModel
import Testing

@Suite struct SyncMarksTests {
    @Test func flashCoversTheFirstHundredMillisecondsOfEverySecondFromOne() {
        #expect(SyncMarks.flash(at: 0) == nil)
        #expect(SyncMarks.flash(at: 99_999_999) == nil)
        #expect(SyncMarks.flash(at: 999_999_999) == nil)
        #expect(SyncMarks.flash(at: 1_000_000_000) == 1)
        #expect(SyncMarks.flash(at: 1_099_999_999) == 1)
        #expect(SyncMarks.flash(at: 1_100_000_000) == nil)
        #expect(SyncMarks.flash(at: 7_033_333_333) == 7)
    }

    @Test func edgesAreTheFlashStartsAndEnds() {
        #expect(SyncMarks.nextEdge(after: 0) == 1_000_000_000)
        #expect(SyncMarks.nextEdge(after: 1_000_000_000) == 1_100_000_000)
        #expect(SyncMarks.nextEdge(after: 1_050_000_000) == 1_100_000_000)
        #expect(SyncMarks.nextEdge(after: 1_100_000_000) == 2_000_000_000)
        // Both edges are starts of 30 fps slots (slot 30k and 30k + 3).
        #expect(UInt64(33) * 1_000_000_000 / 30 == 1_100_000_000)
    }

    @Test(arguments: [44100, 48000, 24000, 32000])
    func clickStartsAtTheMarkSampleAfterSilence(rate: Int) {
        let audio = ProgramAudio(.music, rate: rate, syncMarks: true)
        let samples = ProgramAudioTests.samples(audio, count: 3 * rate, channels: 2)
        let quiet = rate / 10, click = rate / 100
        for mark in [rate, 2 * rate] {
            let silent = (mark - quiet ..< mark).filter { samples[2 * $0] != 0 || samples[2 * $0 + 1] != 0 }
            #expect(silent.isEmpty, "\(silent.count) non-zero samples before the mark at \(mark)")
            for n in 0 ..< click {
                let expected = SyncMarks.clickAmplitude * Float(sin(2 * Double.pi * 1000 * Double(n) / Double(rate)))
                #expect(abs(samples[2 * (mark + n)] - expected) < 1e-6)
                #expect(samples[2 * (mark + n) + 1] == samples[2 * (mark + n)])
            }
        }
        // Outside the windows it is the programme.
        let plain = ProgramAudioTests.samples(ProgramAudio(.music, rate: rate), count: 3 * rate, channels: 2)
        let away = rate / 2
        #expect(samples[2 * away ..< 2 * away + 200] == plain[2 * away ..< 2 * away + 200])
        #expect(samples[2 * (rate + click) ..< 2 * (rate + click) + 200] == plain[2 * (rate + click) ..< 2 * (rate + click) + 200])
    }

    @Test func marksDoNotDependOnHowTheStreamIsCut() {
        let audio = ProgramAudio(.speech, rate: 44100, syncMarks: true)
        let whole = ProgramAudioTests.samples(audio, from: 40_000, count: 9000, channels: 3)
        var pieces: [Float] = []
        var first: Int64 = 40_000
        for size in [1, 63, 955, 69, 4000, 3912] {
            pieces += ProgramAudioTests.samples(audio, from: first, count: size, channels: 3)
            first += Int64(size)
        }
        #expect(pieces == whole)
    }

    /// Video at 30 fps with flashes as replaykitsrc draws them; audio from ProgramAudio with
    /// marks, shifted by `audioDelay`: the detector reads back the shift at every mark.
    static func detect(seconds: Int, audioDelay: Double, rate: Int = 48000, marks: Bool = true) -> SyncMarkDetector.Report {
        var detector = SyncMarkDetector()
        for slot in 0 ..< seconds * 30 {
            let time = UInt64(slot) * 1_000_000_000 / 30
            let flashing = marks && SyncMarks.flash(at: time) != nil
            detector.addVideoFrame(time: Double(time) / 1e9, meanLuma: flashing ? 240 : 90)
        }
        let music = ProgramAudio(.music, rate: rate, syncMarks: marks)
        let speech = ProgramAudio(.speech, rate: rate, syncMarks: marks)
        let block = 1024
        for start in stride(from: 0, to: seconds * rate, by: block) {
            let count = min(block, seconds * rate - start)
            let a = ProgramAudioTests.samples(music, from: Int64(start), count: count, channels: 1)
            let b = ProgramAudioTests.samples(speech, from: Int64(start), count: count, channels: 1)
            let mix = zip(a, b).map { $0 + $1 }
            mix.withUnsafeBufferPointer { detector.addAudio(time: Double(start) / Double(rate) + audioDelay, rate: rate, samples: $0) }
        }
        return detector.report()
    }

    @Test(arguments: [0.0, 0.1, -0.04])
    func detectorMeasuresTheOffsetAtEveryMark(delay: Double) {
        let report = Self.detect(seconds: 12, audioDelay: delay)
        #expect(report.marks.count == 11)
        #expect(report.unmatchedFlashes.isEmpty && report.unmatchedClicks.isEmpty)
        for (index, mark) in report.marks.enumerated() {
            #expect(abs(mark.video - Double(index + 1)) < 1e-9)
            // The first loud sample follows the mark by under ¼ ms (phase-0 sine at −6 dBFS).
            #expect(mark.offset - delay >= 0 && mark.offset - delay < 0.00025, "mark \(index + 1): \(mark.offset)")
        }
        #expect(abs(report.drift) < 0.00025)
    }

    @Test func programmeAloneHasNoMarks() {
        let report = Self.detect(seconds: 20, audioDelay: 0, marks: false)
        #expect(report.marks.isEmpty)
        #expect(report.unmatchedFlashes.isEmpty)
        #expect(report.unmatchedClicks.isEmpty)
    }
}
