// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import Foundation
import MediaKernels
import Testing

extension FlushingSeekTests {
    @Test func pipcompositorRealignsLikeCompositor() throws {
        let main = "videotestsrc ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1"
        let pip = "videotestsrc pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1"
        let seeked = try Self.seek("\(main) ! pip.sink_0 \(pip) ! pip.sink_1 pipcompositor name=pip ! fakesink sync=true name=out "
                                   + "\(main) ! peer.sink_0 \(pip) ! peer.sink_1 compositor name=peer ! fakesink sync=true name=peerout",
                                   observed: ["out", "peerout"])
        #expect(seeked.accepted && seeked.run.error == nil && seeked.run.reachedEOS)
        let ours = seeked.after["out"]!, peer = seeked.after["peerout"]!
        #expect(ours.count == 15, "15 frames of 1/30 s in [0.5 s, 1.0 s): \(ours.count)")
        #expect(ours.map(\.pts) == peer.map(\.pts), "compositor's frame times")
        #expect(ours.first?.pts == Self.start)
    }
}

extension CapsChangeTests {
    /// The main picture changes size twice: the output follows it as compositor's does
    /// (GstVideoAggregator 1.22 drops the frame queued before new caps and shows the next
    /// one in its place), each frame the size of its main picture and drawn from it, the last
    /// one repeated until the end.
    @Test func pipcompositorFollowsTheMainPicturesSizeAsCompositorDoes() {
        func frames(_ factory: String) -> [(size: Int, luma: UInt8)] {
            let harness = Harness(factory: factory, sinkPad: "sink_0", caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1")
            gst_harness_play(harness.harness)
            var pts: UInt64 = 0
            for (width, height) in [(160, 120), (320, 240), (96, 64)] {
                gst_harness_set_src_caps_str(harness.harness, "video/x-raw,format=NV12,width=\(width),height=\(height),framerate=30/1")
                for _ in 0..<3 {
                    harness.push([UInt8](repeating: UInt8(width / 2), count: width * height * 3 / 2), pts: pts, duration: 33_333_333)
                    pts += 33_333_333
                }
            }
            harness.pushEOS()
            var out: [(size: Int, luma: UInt8)] = []
            harness.pullUntilEOS { frame in _ = frame.withReadableBytes { out.append(($0.count, $0[$0.count / 3])) } }
            _ = harness.messages()
            #expect(harness.errors.isEmpty, "\(factory): \(harness.errors)")
            return out
        }
        let ours = frames("pipcompositor"), peer = frames("compositor")
        #expect(ours.count == 9, "a frame per input frame: \(ours.count)")
        #expect(ours.map(\.size) == [28800, 28800, 28800, 115200, 115200, 9216, 9216, 9216, 9216], "\(ours.map(\.size))")
        #expect(ours.map(\.size) == peer.map(\.size) && ours.map(\.luma) == peer.map(\.luma),
                "compositor: \(peer.map(\.size)) \(peer.map(\.luma)), ours: \(ours.map(\.luma))")
        #expect(ours.map(\.luma) == [80, 80, 80, 160, 160, 48, 48, 48, 48], "each frame from its main picture: \(ours.map(\.luma))")
    }
}

extension HostileInputTests {
    /// Main picture buffers smaller than the caps say (100, 0, 28799 and 1 of 28800 bytes)
    /// among good ones: every input gives an output frame, the short ones without the main
    /// picture (compositor also skips a frame it cannot map), and no error.
    @Test func pipcompositorDrawsFramesWithoutShortMainBuffers() throws {
        let harness = Harness(factory: "pipcompositor", sinkPad: "sink_0",
                              caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1")
        let sizes = [28800, 100, 0, 28799, 28800, 1, 28800]
        var firstLuma: [UInt8] = []
        for (index, size) in sizes.enumerated() {
            harness.push([UInt8](repeating: 0x80, count: size), pts: UInt64(index) * 33_333_333, duration: 33_333_333)
        }
        harness.pushEOS()
        harness.pullUntilEOS { frame in _ = frame.withReadableBytes { firstLuma.append($0[0]) } }
        _ = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(firstLuma.count == sizes.count, "one output per input: \(firstLuma)")
        #expect(firstLuma.map { $0 == 0x80 } == sizes.map { $0 == 28800 }, "main shown only from whole buffers: \(firstLuma)")
    }

    /// Pad sizes at the top of their param specs: a PiP (or main picture) more than four
    /// times the output's size is left out of the frame, with one warning naming the pad,
    /// instead of allocating gigabytes for it; four times is still drawn.
    @Test(arguments: [(2_147_483_647, false), (640, true)])
    func pipcompositorLeavesOutPicturesTooLargeToDraw(width: Int, drawn: Bool) throws {
        let out = PadRecorder(inspect: { bytes in String(bytes.prefix(160 * 120).filter { $0 != 235 }.count) })
        let run = try PipelineRun.run(
            "videotestsrc num-buffers=5 pattern=white ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! pip.sink_0 "
                + "videotestsrc num-buffers=5 pattern=black ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! pip.sink_1 "
                + "pipcompositor name=pip sink_1::width=\(width) sink_1::ypos=8 ! fakesink name=out",
            prepare: { out.attach(to: $0, element: "out", pad: "sink") })
        #expect(run.error == nil && run.reachedEOS)
        let covered = out.buffers.compactMap { $0.note.flatMap { Int($0) } }
        #expect(covered.count == 5, "five frames: \(covered)")
        // Drawn at 640 wide from x = 0, the PiP covers rows 8…31 of the 160-pixel-wide frame.
        #expect(covered.allSatisfy { $0 == (drawn ? 160 * 24 : 0) }, "luma samples not white: \(covered)")
        let warnings = run.warnings.filter { $0.contains("sink_1") && $0.contains("\(width)x24") }
        #expect(warnings.count == (drawn ? 0 : 1) && run.warnings.count == warnings.count, "\(run.warnings)")
    }
}

extension PropertyThrashTests {
    @Test func pipcompositorDrawsEveryFrame() throws {
        let description = "videotestsrc num-buffers=30 ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! el.sink_0 "
            + "videotestsrc num-buffers=30 pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! el.sink_1 "
            + "pipcompositor name=el ! fakesink sync=true name=out"
        // As in compositor, a run whose pads all repeat their last frame after EOS never ends.
        let thrashed = try Self.play(description, targets: ["el", "el.sink_0", "el.sink_1"],
                                     settle: { pipeline in
            for pad in ["sink_0", "sink_1"] { setPadProperty(pipeline, element: "el", pad: pad, "repeat-after-eos", "false") }
        })
        let buffers = thrashed.out.buffers
        Self.expectThrashedWhilePlaying(thrashed, "pipcompositor", properties: 25)
        #expect(buffers.count == 30 && buffers.allSatisfy { $0.size == 160 * 120 * 3 / 2 }, "\(buffers.count) frames: \(buffers.prefix(3))")
        #expect(buffers.enumerated().allSatisfy { $0.element.pts == UInt64($0.offset) * 1_000_000_000 / 30 })
        print("pipcompositor thrash: \(thrashed.written)")
    }
}

extension InheritedPropertyParityTests {
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
}

extension InheritedPropertyParityLiveTests {
    static let pip = PeerParity.Pair.pipcompositor
    static let mixer = PeerParity.Pair.dualmixer

    static func main(_ frames: Int, pattern: String = "ball") -> String {
        "videotestsrc is-live=true num-buffers=\(frames) pattern=\(pattern) ! \(videoCaps(.nv12, 64, 48))"
    }

    static func pip(_ frames: Int) -> String {
        "videotestsrc is-live=true num-buffers=\(frames) pattern=white ! \(videoCaps(.nv12, 16, 12))"
    }

    /// zero: the first frame at 0; first: at the first buffer's running time, the same for
    /// both; set: at start-time. start-with-main (ours, off by default) is not involved. One
    /// input: with two, `first` is whichever buffer reaches each element first, which the
    /// two queue threads decide.
    @Test(arguments: selections)
    func pipcompositorStartTimeSelection(selection: String, start: UInt64?) throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(20)], both: selection)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(outcome.run.error?.description ?? "no EOS")")
        #expect(outcome.ours.pts.first == outcome.peer.pts.first && Self.close(outcome.ours.buffers.count, outcome.peer.buffers.count),
                "\(selection): \(outcome.text)")
        if let start { #expect(outcome.ours.pts.first == start, "\(selection): \(outcome.text)") }
        print("\(selection): \(outcome.text)")
    }

    /// latency and min-upstream-latency: both elements answer the same LATENCY query.
    @Test(arguments: ["latency=50000000", "min-upstream-latency=150000000", "latency=30000000 min-upstream-latency=150000000"])
    func pipcompositorLatency(properties: String) throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(60), Self.pip(60)], both: properties,
                                         latencyAfter: 0.3, latencyDuration: 33_333_333)
        let ours = outcome.ours.latency, peer = outcome.peer.latency
        #expect(ours != nil && ours?.live == true && ours?.min == peer?.min && ours?.live == peer?.live,
                "\(properties): ours \(String(describing: ours)), compositor \(String(describing: peer))")
        print("\(properties): minimum latency \(ours?.min ?? 0) ns, compositor \(peer?.min ?? 0) ns")
    }

    /// A requested pad that is never linked: with ignore-inactive-pads=true or false both go
    /// on at live pace (false: each frame waits for its deadline). compositor waits for that
    /// pad's end, so ours does too without end-with-main; the run is stopped after 1 s.
    @Test(arguments: [true, false])
    func pipcompositorIgnoreInactivePads(ignore: Bool) throws {
        let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(300)], both: "ignore-inactive-pads=\(ignore)",
                                         ours: "end-with-main=false", unlinked: 1, timeout: 1)
        #expect(outcome.run.error == nil && !outcome.run.reachedEOS)
        #expect(outcome.ours.buffers.count >= 20 && Self.close(outcome.ours.buffers.count, outcome.peer.buffers.count)
                && outcome.ours.pts.first == outcome.peer.pts.first, "ignore-inactive-pads=\(ignore): \(outcome.text)")
        print("ignore-inactive-pads=\(ignore), one pad never linked, 1 s: \(outcome.text)")
    }

    /// max-last-buffer-repeat on a PiP whose source stalls 0.3 s in (a valve drops its
    /// buffers, its end still passes at 1.5 s): its last picture is dropped 100 ms after that
    /// buffer's end; without it, the picture stays until the PiP's end. compositor ends when
    /// every input has: ours too, without end-with-main.
    @Test func pipcompositorMaxLastBufferRepeat() throws {
        func run(_ properties: String) throws -> (ours: Int, peer: Int, text: String) {
            let stalling = Self.pip(45) + " ! valve name=stall drop-mode=forward-sticky-events"
            let outcome = try PeerParity.run(Self.pip, inputs: [Self.main(30, pattern: "black"), stalling], both: properties,
                                             ours: "end-with-main=false", frames: true, whilePlaying: { pipeline in
                Thread.sleep(forTimeInterval: 0.3)
                let valve = gst_bin_get_by_name(rc_bin(pipeline), "stall")!
                gst_util_set_object_arg(rc_gobject(valve), "drop", "true")
                gst_object_unref(valve)
            })
            #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(properties): \(outcome.run.error?.description ?? "no EOS")")
            let white = RGBColor.white.yuv(in: .bt709Limited).y
            let shown = { (frames: [GrabbedFrame]) in frames.filter { $0.sample(0, 8, 6) == white }.count }
            return (shown(outcome.ours.frames), shown(outcome.peer.frames), outcome.text)
        }
        let limited = try run("sink_1::max-last-buffer-repeat=100000000")
        let unlimited = try run("")
        #expect(Self.close(limited.ours, limited.peer) && Self.close(unlimited.ours, unlimited.peer),
                "frames with the PiP: limited \(limited.ours) vs \(limited.peer), unlimited \(unlimited.ours) vs \(unlimited.peer)")
        // Without the limit, the PiP stays in all 45 frames but a frame or two at each end.
        #expect(limited.ours <= 16 && unlimited.ours >= 41, "the PiP in \(limited.ours) of 45 frames with the limit, \(unlimited.ours) without")
        print("max-last-buffer-repeat 100 ms, PiP stalled at 0.3 s: PiP in \(limited.ours) of 45 frames (compositor \(limited.peer)); "
              + "without it \(unlimited.ours) (compositor \(unlimited.peer))")
    }
}
