// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import MediaKernels
import Testing

/// Every property an element inherits keeps the meaning its base class documents: each case
/// sets one on our element and on its upstream peer (compositor, audiomixer) in the same
/// pipeline, on the same inputs, and compares what the property changes. Live cases are in
/// InheritedPropertyParityLiveTests; our own timing rules (pipcompositor's start-with-main
/// and end-with-main) are compared where they are off.
@Suite struct InheritedPropertyParityTests {
    static let pip = PeerParity.Pair.pipcompositor
    static let mixer = PeerParity.Pair.dualmixer

    /// A 64x48 ball (a new picture every frame) and a 16x12 PiP, NV12, same colorimetry.
    static func main(_ frames: Int, fps: String = "30/1") -> String {
        "videotestsrc num-buffers=\(frames) pattern=ball ! \(videoCaps(.nv12, 64, 48, fps: fps))"
    }

    static func pip(_ frames: Int, fps: String = "30/1", pattern: String = "smpte") -> String {
        "videotestsrc num-buffers=\(frames) pattern=\(pattern) ! \(videoCaps(.nv12, 16, 12, fps: fps))"
    }

    /// Frames made by both, the same times and bytes.
    static func expectSameFrames(_ outcome: PeerParity.Outcome, count expected: Int, _ what: String) {
        let ours = outcome.ours.frames, peer = outcome.peer.frames
        #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(what): \(outcome.run.error?.description ?? "no EOS")")
        #expect(ours.count == expected && peer.count == expected, "\(what): \(ours.count) frames, compositor \(peer.count), expected \(expected)")
        #expect(ours.map(\.pts) == peer.map(\.pts), "\(what): times \(ours.map(\.pts)) vs \(peer.map(\.pts))")
        let differing = zip(ours, peer).filter { $0.planes != $1.planes }.count
        #expect(differing == 0, "\(what): \(differing) of \(ours.count) frames differ from compositor's")
        print("\(what): \(ours.count) frames, the same times as compositor's, \(ours.count - differing) identical")
    }

    // MARK: - pipcompositor (GstVideoAggregatorPad, GstAggregator)

    /// repeat-after-eos on the main pad: its last frame goes on under the PiP until the PiP
    /// ends (5 frames, not the main's 2), whatever end-with-main says.
    @Test func pipcompositorRepeatAfterEOSOnTheMain() throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(2), Self.pip(5)], both: "sink_0::repeat-after-eos=true",
                                         frames: true)
        Self.expectSameFrames(outcome, count: 5, "main 2 frames with repeat-after-eos, PiP 5")
        let frames = outcome.ours.frames
        let mainArea = PixelRect(x: 16, y: 12, width: 48, height: 36)
        let repeats = frames.dropFirst(2).filter { $0.cropped(mainArea).planes == frames[1].cropped(mainArea).planes }.count
        #expect(frames.count == 5 && repeats == 3, "\(repeats) of the 3 frames after the main's end show its last frame")
    }

    /// repeat-after-eos on the only pad: the output repeats its last frame until stopped
    /// (every pad that is EOS repeats, so not all of them are at an end).
    @Test func pipcompositorRepeatAfterEOSOnTheOnlyPad() throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(5)], both: "sink_0::repeat-after-eos=true", timeout: 0.5)
        #expect(outcome.run.timedOut && !outcome.run.reachedEOS && outcome.run.error == nil)
        #expect(outcome.ours.buffers.count >= 50 && outcome.peer.buffers.count >= 50,
                "5 input frames: \(outcome.text) in 0.5 s, neither ended")
        print("one pad of 5 frames with repeat-after-eos, 0.5 s: \(outcome.text)")
    }

    /// repeat-after-eos on a PiP: the PiP's last frame stays drawn until the main ends.
    @Test func pipcompositorRepeatAfterEOSOnAPiP() throws {
        let repeated = try PeerParity.run(Self.pip, inputs: [Self.main(6), Self.pip(2)], both: "sink_1::repeat-after-eos=true",
                                          frames: true)
        Self.expectSameFrames(repeated, count: 6, "PiP 2 frames with repeat-after-eos, main 6")
        let plain = try PeerParity.run(Self.pip, inputs: [Self.main(6), Self.pip(2)], frames: true)
        Self.expectSameFrames(plain, count: 6, "PiP 2 frames without, main 6")
        let differ = zip(repeated.ours.frames, plain.ours.frames).filter { $0.planes != $1.planes }.count
        #expect(differ == 4, "\(differ) of 6 frames show the PiP only with repeat-after-eos (its last 4)")
    }

    /// end-with-main=false is compositor's rule: the output goes on until every input has
    /// ended, without the main picture after its end (background and PiP).
    @Test func pipcompositorEndsLikeCompositorWithoutEndWithMain() throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(2), Self.pip(5)], ours: "end-with-main=false", frames: true)
        Self.expectSameFrames(outcome, count: 5, "main 2 frames, PiP 5, end-with-main=false")
        let ours = try PeerParity.run(Self.pip, inputs: [Self.main(2), Self.pip(5)], frames: true)
        #expect(ours.ours.frames.count == 2, "end-with-main (the default): \(ours.ours.frames.count) frames, the main's 2")
    }

    /// force-live on non-live inputs: GstVideoAggregator aggregates on timeouts, so it makes
    /// frames far beyond its inputs' 20 (compositor 1.22: ~100,000 in 3 s); pipcompositor does
    /// the same without end-with-main. Frames made on timeouts race the inputs' arrival (on a
    /// busy machine the output runs seconds ahead of a starved main, and compositor may even
    /// see both ends and stop), so their count, times and end are not compared: only that both
    /// make them from 0, and that with end-with-main ours ends, not before the main's last frame.
    @Test func pipcompositorForceLive() throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(20), Self.pip(20)], both: "force-live=true",
                                         ours: "end-with-main=false", timeout: 0.5)
        #expect(outcome.run.error == nil && outcome.ours.buffers.count >= 50 && outcome.peer.buffers.count >= 50
                && outcome.ours.pts.first == 0 && outcome.peer.pts.first == 0, "force-live: \(outcome.text) in 0.5 s")
        let ended = try PeerParity.run(Self.pip, inputs: [Self.main(20), Self.pip(20)], both: "force-live=true", timeout: 0.5)
        let times = ended.ours.pts, mainLast: UInt64 = 19 * 1_000_000_000 / 30
        #expect(ended.ours.ended && times.first == 0 && (times.last ?? 0) >= mainLast
                && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 },
                "with end-with-main: \(times.count) frames from \(times.first ?? 0) to \(times.last ?? 0) ns, ended \(ended.ours.ended)")
        print("force-live=true, 0.5 s: \(outcome.text); with end-with-main \(times.count) frames to \(times.last ?? 0) ns "
              + "(the main's last \(mainLast)), then EOS")
    }

    /// start-time-selection=set, not live: the output's segment and frames start at start-time.
    @Test func pipcompositorStartTimeSet() throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(6), Self.pip(6)],
                                         both: "start-time-selection=set start-time=100000000", frames: true)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        #expect(outcome.ours.pts == outcome.peer.pts && outcome.ours.frames.map(\.planes) == outcome.peer.frames.map(\.planes),
                "\(outcome.ours.pts) vs \(outcome.peer.pts)")
        #expect(outcome.ours.pts.first == 100_000_000, "\(outcome.text)")
        print("start-time-selection=set, 100 ms: \(outcome.text)")
    }

    /// emit-signals: one samples-selected per output frame; none without it.
    @Test func pipcompositorEmitSignals() throws {
        let on = try PeerParity.run(Self.pip, inputs: [Self.main(8), Self.pip(8)], both: "emit-signals=true")
        #expect(on.ours.selected == on.peer.selected && on.ours.selected == on.ours.buffers.count && on.ours.selected == 8,
                "samples-selected: ours \(on.ours.selected), compositor \(on.peer.selected), \(on.ours.buffers.count) frames")
        print("emit-signals: samples-selected \(on.ours.selected) times, compositor \(on.peer.selected), for \(on.ours.buffers.count) frames")
        let off = try PeerParity.run(Self.pip, inputs: [Self.main(8), Self.pip(8)])
        #expect(off.ours.selected == 0 && off.peer.selected == 0)
    }

    // MARK: - dualmixer (GstAggregator; audiomixer's names for output-buffer-duration, volume, mute)

    /// 48 kHz stereo S16LE in and out, so neither resamples nor converts: 0.1 s of a sine on
    /// each input.
    static func tone(_ frequency: Int, buffers: Int = 10, volume: Double = 0.3) -> String {
        "audiotestsrc num-buffers=\(buffers) samplesperbuffer=480 freq=\(frequency) volume=\(volume) "
            + "! audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"
    }

    static let mixOutput = "audio/x-raw,format=S16LE,rate=48000,channels=2"

    @Test(arguments: [UInt64(10_000_000), 20_000_000, 25_000_000])
    func dualmixerOutputBufferDuration(duration: UInt64) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)],
                                         both: "output-buffer-duration=\(duration)", output: Self.mixOutput)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        let durations = Set(outcome.ours.buffers.dropLast().map(\.duration))
        #expect(outcome.ours.pts == outcome.peer.pts && durations == [duration], "\(duration) ns: \(outcome.text), durations \(durations)")
        #expect(outcome.ours.end == outcome.peer.end && outcome.ours.end == 100_000_000, "ends at \(outcome.ours.end ?? 0) ns")
        print("output-buffer-duration \(duration) ns: \(outcome.text)")
    }

    @Test func dualmixerStartTimeSet() throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)],
                                         both: "start-time-selection=set start-time=30000000", output: Self.mixOutput)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        #expect(outcome.ours.pts == outcome.peer.pts && outcome.ours.pts.first == 30_000_000, "\(outcome.text)")
    }

    /// emit-signals: one samples-selected per output buffer. audiomixer emits one more, in
    /// the call that finds every input ended (GstAudioAggregator selects before it knows).
    @Test func dualmixerEmitSignals() throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)], both: "emit-signals=true",
                                         output: Self.mixOutput)
        let peerExtra = outcome.peer.selected - outcome.peer.buffers.count
        #expect(outcome.ours.selected == outcome.ours.buffers.count && outcome.ours.selected == 10
                && outcome.peer.buffers.count == 10 && (0...1).contains(peerExtra),
                "samples-selected: ours \(outcome.ours.selected), audiomixer \(outcome.peer.selected); \(outcome.text)")
        let off = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)], output: Self.mixOutput)
        #expect(off.ours.selected == 0 && off.peer.selected == 0)
        print("emit-signals: samples-selected \(outcome.ours.selected) times, audiomixer \(outcome.peer.selected); \(outcome.text)")
    }

    /// The largest sample magnitude of an S16LE buffer, as PadRecorder's note.
    static func peak(_ bytes: UnsafeRawBufferPointer) -> String? {
        let samples = bytes.bindMemory(to: Int16.self)
        return String(samples.reduce(0) { max($0, abs(Int($1))) })
    }

    /// Pad volume and mute, audiomixer's names: the same peaks (within 2 of 32767 for the
    /// float sum dualmixer rounds back to S16). Both inputs are the same sine at 0.2 of full
    /// scale (6553), so each setting has its own sum: 2 x 6553, 1.5 x, 2.5 x, none.
    @Test(arguments: [("", 13107), ("sink_0::volume=0.5", 9830), ("sink_0::volume=2.5 sink_1::mute=true", 16384),
                      ("sink_0::mute=true sink_1::mute=true", 0)])
    func dualmixerPadVolumeAndMute(properties: String, expected: Int) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440, volume: 0.2), Self.tone(440, volume: 0.2)],
                                         both: properties, output: Self.mixOutput, inspect: Self.peak)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        let ours = outcome.ours.buffers.compactMap { $0.note.flatMap { Int($0) } }
        let peer = outcome.peer.buffers.compactMap { $0.note.flatMap { Int($0) } }
        let far = zip(ours, peer).filter { abs($0 - $1) > 2 }.count
        #expect(ours.count == 10 && peer.count == 10 && far == 0, "'\(properties)': peaks \(ours) vs audiomixer's \(peer)")
        #expect(ours.allSatisfy { abs($0 - expected) <= 40 }, "'\(properties)': peaks \(ours), about \(expected) expected")
        print("'\(properties)': peaks \(ours.max() ?? 0), audiomixer \(peer.max() ?? 0), \(ours.count) buffers compared")
    }

    // MARK: - volumemeter (GstBaseTransform's qos, against level)

    /// qos: after a QoS event saying downstream is 250 ms late at 0, a transform that handles
    /// QoS drops the buffers that would be late (running time before 0 + 2 x 250 ms); without
    /// it every buffer passes. Ten 100 ms buffers of a tone through each, in a harness.
    @Test(arguments: [true, false])
    func volumemeterQoS(enabled: Bool) throws {
        func passed(_ factory: String) -> Int {
            let harness = Harness("\(factory) qos=\(enabled)", caps: "audio/x-raw,format=S16LE,rate=48000,channels=1,layout=interleaved")
            let tone = Signals.encode(Signals.sine(frequency: 440, amplitude: 0.5, rate: 48000, frames: 4800), as: .s16le)
            harness.push(tone, pts: 0, duration: 100_000_000)
            _ = gst_harness_push_upstream_event(harness.harness, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 0.5, 250_000_000, 0))
            for index in 1..<10 { harness.push(tone, pts: UInt64(index) * 100_000_000, duration: 100_000_000) }
            return Int(gst_harness_buffers_received(harness.harness))
        }
        let ours = passed("volumemeter"), peer = passed("level")
        #expect(ours == peer && (enabled ? ours < 10 : ours == 10), "qos=\(enabled): volumemeter passed \(ours) of 10 buffers, level \(peer)")
        print("qos=\(enabled): volumemeter passed \(ours) of 10 buffers, level \(peer)")
    }
}
