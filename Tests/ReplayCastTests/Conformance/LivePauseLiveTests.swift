// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import Testing

/// A live pipeline paused mid-run: GstAggregator 1.22 goes on timing out in PAUSED, so
/// GStreamer's own mixers push output for time that never ran (`LivePause` in the elements).
/// Ours push nothing from the pause until PLAYING, and the run ends with as much output as its
/// input. Each element and its peer, in the same run: on 1.22 the peer's output during the
/// pause shows the pause was long enough to time out in; from 1.26 the peer pushes nothing
/// either (GstAggregator waits for PLAYING there).
@Suite(.serialized) struct LivePauseLiveTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let element: String
        let peer: String
        /// The launch line with MIXER where the aggregator goes.
        let line: String
        /// What the input lasts, ns.
        let input: UInt64
        /// One output buffer (a frame, or the mixer's output-buffer-duration), ns.
        let outputBuffer: UInt64
        var testDescription: String { "\(element) beside \(peer)" }
    }

    // A latency of 100 ms puts the peer's first timeout in the pause well after anything
    // already on its way when the pause began.
    static let cases: [Case] = [
        .init(element: "dualmixer", peer: "audiomixer",
              line: "audiotestsrc is-live=true num-buffers=25 samplesperbuffer=960 "
                + "! audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved ! mix. "
                + "MIXER name=mix latency=100000000 ! audio/x-raw,format=S16LE,rate=48000,channels=2 ! fakesink name=out",
              input: 500_000_000, outputBuffer: 10_000_000),
        .init(element: "pipcompositor", peer: "compositor",
              line: "videotestsrc is-live=true num-buffers=15 ! video/x-raw,format=NV12,width=64,height=48,framerate=30/1 ! mix. "
                + "MIXER name=mix latency=100000000 ! video/x-raw,format=NV12,width=64,height=48 ! fakesink name=out",
              input: 500_000_000, outputBuffer: 33_333_333),
    ]

    /// Output buffers pushed while the pipeline was PAUSED (from 40 ms after it got there
    /// until PLAYING), and every buffer of the run.
    static func pausedRun(_ line: String, mixer: String) throws -> (duringPause: Int, buffers: [PadRecorder.BufferRecord]) {
        let recorder = PadRecorder()
        var duringPause = 0
        let run = try PipelineRun.run(line.replacingOccurrences(of: "MIXER", with: mixer), timeout: 10,
                                      prepare: { recorder.attach(to: $0, element: "out", pad: "sink") },
                                      whilePlaying: { pipeline in
            gst_element_get_state(pipeline, nil, nil, 5_000_000_000)
            Thread.sleep(forTimeInterval: 0.15)
            gst_element_set_state(pipeline, GST_STATE_PAUSED)
            gst_element_get_state(pipeline, nil, nil, 5_000_000_000)
            LiveSources.settle(pipeline)
            Thread.sleep(forTimeInterval: 0.04)
            let before = recorder.buffers.count
            Thread.sleep(forTimeInterval: 0.4)
            duringPause = recorder.buffers.count - before
            gst_element_set_state(pipeline, GST_STATE_PLAYING)
        })
        #expect(run.error == nil && run.reachedEOS, "\(mixer): \(run.error.map(String.init(describing:)) ?? "no EOS")")
        return (duringPause, recorder.buffers)
    }

    @Test(arguments: cases)
    func aPausedLiveAggregatorMakesNothingUntilPlaying(_ c: Case) throws {
        let ours = try Self.pausedRun(c.line, mixer: c.element)
        let peer = try Self.pausedRun(c.line, mixer: c.peer)
        if GStreamerRelease.aggregatorTimesOutWhilePaused {
            #expect(peer.duringPause >= 1, "\(c.peer) timed out in none of the pause: the pause tests nothing")
        } else {
            #expect(peer.duringPause == 0, "\(c.peer) pushed \(peer.duringPause) buffers while PAUSED: GstAggregator times out in PAUSED on this release")
        }
        #expect(ours.duringPause == 0, "\(c.element) pushed \(ours.duringPause) buffers while PAUSED")
        let first = try #require(ours.buffers.first), last = try #require(ours.buffers.last)
        let span = last.pts + last.duration - first.pts
        #expect(span <= c.input + 2 * c.outputBuffer, "\(c.element): \(ours.buffers.count) buffers span \(span / 1_000_000) ms for \(c.input / 1_000_000) ms of input")
        #expect(ours.buffers.ptsNotIncreasing.isEmpty, "\(c.element): timestamps not increasing after buffers \(ours.buffers.ptsNotIncreasing)")
        let peerLast = try #require(peer.buffers.last)
        print("live pause \(c.element): \(ours.duringPause) buffers while PAUSED, \(ours.buffers.count) spanning \(span / 1_000_000) ms; "
              + "\(c.peer): \(peer.duringPause) while PAUSED, \(peer.buffers.count) spanning \((peerLast.pts + peerLast.duration - peer.buffers[0].pts) / 1_000_000) ms")
    }
}
