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

    @Test(arguments: ElementFixture.taking(\.livePause))
    func aPausedLiveAggregatorMakesNothingUntilPlaying(_ fixture: ElementFixture) throws {
        let c = try #require(fixture.livePause.value), element = fixture.element
        let ours = try Self.pausedRun(c.line, mixer: element)
        let peer = try Self.pausedRun(c.line, mixer: c.peer)
        if GStreamerRelease.aggregatorTimesOutWhilePaused {
            #expect(peer.duringPause >= 1, "\(c.peer) timed out in none of the pause: the pause tests nothing")
        } else {
            #expect(peer.duringPause == 0, "\(c.peer) pushed \(peer.duringPause) buffers while PAUSED: GstAggregator times out in PAUSED on this release")
        }
        #expect(ours.duringPause == 0, "\(element) pushed \(ours.duringPause) buffers while PAUSED")
        let first = try #require(ours.buffers.first), last = try #require(ours.buffers.last)
        let span = last.pts + last.duration - first.pts
        #expect(span <= c.input + 2 * c.outputBuffer, "\(element): \(ours.buffers.count) buffers span \(span / 1_000_000) ms for \(c.input / 1_000_000) ms of input")
        #expect(ours.buffers.ptsNotIncreasing.isEmpty, "\(element): timestamps not increasing after buffers \(ours.buffers.ptsNotIncreasing)")
        let peerLast = try #require(peer.buffers.last)
        print("live pause \(element): \(ours.duringPause) buffers while PAUSED, \(ours.buffers.count) spanning \(span / 1_000_000) ms; "
              + "\(c.peer): \(peer.duringPause) while PAUSED, \(peer.buffers.count) spanning \((peerLast.pts + peerLast.duration - peer.buffers[0].pts) / 1_000_000) ms")
    }
}
