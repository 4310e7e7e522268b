// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import Testing

/// Each element in a small non-live pipeline that plays in real time (sinks sync to the
/// clock, so state changes land in the middle of runs): after every sequence of
/// `StateMatrix.sequences`, and after 100 NULL ↔ PLAYING cycles, a run to EOS gives exactly
/// what the pipeline's first run gave: the same buffers (timestamps, durations, sizes,
/// flags) on every observed pad and the same number of element messages.
@Suite struct StateMatrixTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let element: String
        let description: String
        let observed: [String]
        /// Buffers a run gives on each observed pad, at least: what the sources' lengths make.
        let buffers: Int
        /// Element messages expected in a run (broadcast lifecycle, levels, meters).
        let messages: Bool
        var testDescription: String { element }
    }

    static let audio = "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"

    static let cases: [Case] = [
        Case(element: "replaykitsrc",
             description: "replaykitsrc name=rk is-live=false duration=300000000 "
                + "rk.video ! fakesink sync=true name=video rk.audio_app ! fakesink sync=true name=app rk.audio_mic ! fakesink sync=true name=mic",
             // 0.3 s: 9 frames at 30 fps; the 1024-frame audio buffers are shorter than a frame.
             observed: ["video", "app", "mic"], buffers: 9, messages: true),
        Case(element: "dualmixer",
             description: "audiotestsrc num-buffers=15 samplesperbuffer=960 ! \(audio) ! mix.app "
                + "audiotestsrc num-buffers=15 samplesperbuffer=441 wave=pink-noise ! audio/x-raw,rate=44100,channels=1 ! mix.mic "
                + "dualmixer name=mix post-levels=true level-interval=50000000 ! fakesink sync=true name=out",
             // The app's 0.3 s in 10 ms output buffers.
             observed: ["out"], buffers: 30, messages: true),
        Case(element: "volumemeter",
             description: "audiotestsrc num-buffers=15 samplesperbuffer=960 ! \(audio) "
                + "! volumemeter interval=50000000 loudness=true ! fakesink sync=true name=out",
             observed: ["out"], buffers: 15, messages: true),
        Case(element: "pipcompositor",
             description: "videotestsrc num-buffers=9 ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! pip.sink_0 "
                + "videotestsrc num-buffers=9 pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! pip.sink_1 "
                + "pipcompositor name=pip sink_1::xpos=8 sink_1::ypos=8 ! fakesink sync=true name=out",
             observed: ["out"], buffers: 9, messages: false),
        // No server on the port: the first attempt is refused at once (one rtmp-reconnecting
        // message, long before the frames, paced by identity, end; the retry is 10 s away) and
        // a run ends in EOS without a connection. A refusal that comes after the end ends the
        // element without that message, as no retry follows: in a suite that keeps both cores
        // busy, 0.3 s of frames once ended first (Debian sid), so they last 1 s.
        publisher(element: "rtmpreconnectsink", location: "rtmp://127.0.0.1:9/live/matrix"),
    ]

    /// rtmpreconnectsink fed 1 s of H.264, publishing to `location`, the raw frames observed
    /// through the tee (the encoder's output varies from run to run).
    static func publisher(element: String, location: String) -> Case {
        Case(element: element,
             description: "videotestsrc num-buffers=30 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
                + "! queue ! identity sync=true ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=3 ! h264parse ! rtmp.video "
                + "t. ! queue ! fakesink sync=true name=out "
                + "rtmpreconnectsink name=rtmp location=\(location) retry-delay=10000000000",
             observed: ["out"], buffers: 30, messages: true)
    }

    /// The first run, which later runs are compared with: `margin` fewer buffers than the
    /// case's are allowed (a live run's count depends on the clock).
    static func baseline(_ matrix: StateMatrix, _ c: Case, margin: Int = 0) -> StateMatrix.Outcome? {
        let first = matrix.run()
        #expect(first.error == nil, "\(c.element): first run: \(first.error ?? "")")
        #expect(c.observed.allSatisfy { (first.buffers[$0]?.count ?? 0) >= c.buffers - margin },
                "\(c.element): first run, at least \(c.buffers - margin) buffers on each pad: \(first)")
        #expect((first.messages > 0) == c.messages, "\(c.element): first run: \(first)")
        return first.error == nil ? first : nil
    }

    static func everyStateSequence(_ c: Case) throws {
        let matrix = try StateMatrix(c.description, observed: c.observed)
        guard let first = Self.baseline(matrix, c) else { return }
        for sequence in StateMatrix.sequences {
            let outcome = matrix.run(after: sequence)
            #expect(outcome == first, "\(c.element) after \(StateMatrix.name(sequence)): \(outcome), first run: \(first)")
        }
        print("\(c.element): \(StateMatrix.sequences.count) state sequences, each run as the first: \(first)")
    }

    /// `settle`: seconds to wait between the cycles and the run.
    static func aHundredFastCycles(_ c: Case, settle: Double = 0) throws {
        let matrix = try StateMatrix(c.description, observed: c.observed)
        guard let first = Self.baseline(matrix, c) else { return }
        matrix.cycle(100)
        Thread.sleep(forTimeInterval: settle)
        let outcome = matrix.run()
        #expect(outcome == first, "\(c.element) after 100 NULL ↔ PLAYING cycles: \(outcome), first run: \(first)")
    }

    @Test(arguments: cases)
    func everyStateSequenceThenARunGivesTheFirstRunsOutput(_ c: Case) throws {
        try Self.everyStateSequence(c)
    }

    @Test(arguments: cases)
    func aHundredFastCyclesThenARunGivesTheFirstRunsOutput(_ c: Case) throws {
        try Self.aHundredFastCycles(c)
    }

    /// Over SRT, to a real receiver (scripts/srt-receiver), which listens again as each
    /// caller goes: every run connects (one rtmp-connected message) and ends once the
    /// receiver has played out what it holds. A cycle's stop comes in the middle of its
    /// connect. The receiver takes one caller at a time, and the last cycle's may be one it
    /// accepted whose caller never learnt it was connected, so sent it no goodbye: the
    /// receiver answers no one until libsrt's peer idle timeout (5 s) ends that connection.
    /// Run at once, the next attempt waited out libsrt's 3 s connect timeout in 3 runs of 7,
    /// ending after the stream did (no message); so the run comes 6 s after the cycles.
    @Test func overSrtEveryStateSequenceAndAHundredFastCyclesThenARunGivesTheFirstRunsOutput() throws {
        let receiver = try SrtReceiver()
        defer { receiver.stop() }
        let c = Self.publisher(element: "rtmpreconnectsink over SRT", location: receiver.url)
        try Self.everyStateSequence(c)
        try Self.aHundredFastCycles(c, settle: 6)
    }
}
