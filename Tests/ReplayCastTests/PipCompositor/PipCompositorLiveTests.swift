// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import MediaKernels
@testable import ReplayCast
import ReplayCastSupport
import Synchronization
import Testing

/// Live pipelines: a PiP that is not linked, ends, arrives late or is slow never holds the
/// main picture back; properties change while playing without torn frames. Everything runs
/// at 60 fps so each test takes about half a second of real time.
@Suite(.serialized) struct PipCompositorLiveTests {
    static let white = RGBColor.white.yuv(in: .bt709Limited).y

    /// Main: 60 fps live black for `frames` frames; output grabbed at `out` with arrival times.
    /// `unlinkedPad` requests a sink pad that stays unlinked.
    static func run(pip: String?, frames: Int = 30, extra: String = "", unlinkedPad: Bool = false, timeout: Double = 10,
                    whilePlaying: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                    finished: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil)
        throws -> (run: PipelineRun, frames: [GrabbedFrame], arrivals: [Double]) {
        var description = "videotestsrc is-live=true pattern=black num-buffers=\(frames) ! \(videoCaps(.nv12, 160, 120, fps: "60/1")) "
            + "! pipcompositor name=pip \(extra) ! fakesink name=out "
        if let pip { description += "\(pip) ! pip." }
        let grabber = FrameGrabber()
        let arrivals = Locked<[Double]>([])
        let start = Date()
        let run = try PipelineRun.run(description, timeout: timeout, prepare: { pipeline in
            grabber.attach(to: pipeline, element: "out") { _ in
                arrivals.withLock { $0.append(Date().timeIntervalSince(start)) }
            }
            if unlinkedPad {
                let pip = gst_bin_get_by_name(rc_bin(pipeline), "pip")!
                let pad = gst_element_request_pad_simple(pip, "sink_%u")!
                gst_util_set_object_arg(rc_gobject(pad), "xpos", "10")
                gst_object_unref(pad)
                gst_object_unref(pip)
            }
        }, whilePlaying: whilePlaying, finished: finished)
        return (run, grabber.frames, arrivals.withLock { $0 })
    }

    /// Adds the branch `description` to the playing `pipeline` on a new pad of "pip".
    static func linkBranch(_ description: String, to pipeline: UnsafeMutablePointer<GstElement>) {
        var error: UnsafeMutablePointer<GError>?
        let branch = gst_parse_bin_from_description(description, 1, &error)!
        gst_bin_add(rc_bin(pipeline), branch)
        let pip = gst_bin_get_by_name(rc_bin(pipeline), "pip")!
        let sink = gst_element_request_pad_simple(pip, "sink_%u")!
        let source = gst_element_get_static_pad(branch, "src")!
        _ = gst_pad_link(source, sink)
        _ = gst_element_sync_state_with_parent(branch)
        gst_object_unref(source)
        gst_object_unref(sink)
        gst_object_unref(pip)
    }

    static func hasPiP(_ frame: GrabbedFrame) -> Bool {
        PipCompositorPixelTests.region(of: white, in: frame).count > 0
    }

    /// The 30th output frame (0.5 s of main) arrives on time, give or take the latency and a
    /// busy machine.
    static func expectLivePace(_ arrivals: [Double], _ label: String) {
        #expect(arrivals.count >= 30, "\(label): \(arrivals.count) frames")
        if arrivals.count >= 30 {
            #expect(arrivals[29] < 1.5, "\(label): frame 30 after \(arrivals[29]) s")
            print(String(format: "%@: frame 30 arrived after %.2f s", label, arrivals[29]))
        }
    }

    /// A sink pad requested before playing and never linked (the PiP is configured in
    /// advance). With ignore-inactive-pads=true (our default) it is not waited for and the
    /// output follows the main; with false (compositor's default) frames still come at live
    /// pace. Either way the output ends with the main picture, though the unlinked pad has
    /// neither data nor EOS (compositor would wait for it forever).
    @Test(arguments: [true, false])
    func unlinkedPiPPadDoesNotStallTheMain(ignoreInactivePads: Bool) throws {
        let outcome = try Self.run(pip: nil, extra: "ignore-inactive-pads=\(ignoreInactivePads)", unlinkedPad: true)
        #expect(outcome.run.error == nil)
        #expect(outcome.run.reachedEOS && !outcome.run.timedOut)
        Self.expectLivePace(outcome.arrivals, "unlinked sink_1, ignore-inactive-pads=\(ignoreInactivePads)")
    }

    /// Caps reach both inputs at once, their buffers only after 0.3 s (valves), so the first
    /// frames' deadlines pass with every input still inactive. That is not the end of the
    /// output (GstVideoAggregator 1.22 takes it for one with ignore-inactive-pads=true, and
    /// compositor ends there): the frames come once the inputs flow.
    @Test(arguments: [true, false])
    func inputsThatStartAfterTheFirstDeadlines(ignoreInactivePads: Bool) throws {
        let held = "valve drop=true drop-mode=forward-sticky-events"
        let description = "videotestsrc is-live=true pattern=black num-buffers=60 ! \(videoCaps(.nv12, 160, 120, fps: "60/1")) "
            + "! \(held) name=main ! pipcompositor name=pip ignore-inactive-pads=\(ignoreInactivePads) ! fakesink name=out "
            + "videotestsrc is-live=true pattern=white ! \(videoCaps(.nv12, 32, 24, fps: "60/1")) ! \(held) name=camera ! pip."
        let grabber = FrameGrabber()
        let run = try PipelineRun.run(description, timeout: 10, prepare: { pipeline in
            grabber.attach(to: pipeline, element: "out")
        }, whilePlaying: { pipeline in
            Thread.sleep(forTimeInterval: 0.3)
            for valve in ["main", "camera"] {
                let element = gst_bin_get_by_name(rc_bin(pipeline), valve)!
                gst_util_set_object_arg(rc_gobject(element), "drop", "false")
                gst_object_unref(element)
            }
        })
        #expect(run.error == nil && run.reachedEOS && !run.timedOut)
        // 60 main frames, about 18 of them dropped while held.
        #expect(grabber.frames.count >= 30, "\(grabber.frames.count) output frames")
        #expect(grabber.frames.contains(where: Self.hasPiP), "the camera is shown")
    }

    @Test func pipThatEndsLeavesTheMainAlone() throws {
        let outcome = try Self.run(pip: "videotestsrc is-live=true pattern=white num-buffers=5 ! \(videoCaps(.nv12, 32, 24, fps: "60/1"))")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        Self.expectLivePace(outcome.arrivals, "PiP ends after 5 frames")
        #expect(outcome.frames.prefix(3).contains(where: Self.hasPiP), "the PiP was shown")
        #expect(!outcome.frames.suffix(10).contains(where: Self.hasPiP), "and is gone after its EOS")
    }

    /// The screen ends (the broadcast finished) while the camera goes on: the output ends
    /// with the main picture's last frame, not with the camera.
    @Test func mainThatEndsEndsTheOutput() throws {
        let outcome = try Self.run(pip: "videotestsrc is-live=true pattern=white ! \(videoCaps(.nv12, 32, 24, fps: "60/1"))")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS && !outcome.run.timedOut)
        // One output per main frame, and at most one more: a live timeout before the main's first.
        #expect((30 ... 31).contains(outcome.frames.count), "\(outcome.frames.count) output frames for 30 main frames")
        #expect((outcome.arrivals.last ?? 99) < 1.5, "ended with the main input, after \(outcome.arrivals.last ?? -1) s")
    }

    /// A PiP six times slower than real time: its buffers are late, the main is not.
    @Test func slowPiPDoesNotSlowTheMain() throws {
        let outcome = try Self.run(pip: "videotestsrc is-live=true pattern=white num-buffers=5 ! \(videoCaps(.nv12, 32, 24, fps: "60/1")) "
                                   + "! identity sleep-time=100000")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        Self.expectLivePace(outcome.arrivals, "PiP at a sixth of real time")
    }

    /// No PiP at first; one is linked to a new pad after 0.25 s and shows up.
    @Test func pipArrivingLaterAppears() throws {
        let outcome = try Self.run(pip: nil, frames: 45, whilePlaying: { pipeline in
            Thread.sleep(forTimeInterval: 0.25)
            Self.linkBranch("videotestsrc is-live=true do-timestamp=true pattern=white num-buffers=20 ! "
                            + "\(videoCaps(.nv12, 32, 24, fps: "60/1")) ! queue", to: pipeline)
        })
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        Self.expectLivePace(outcome.arrivals, "PiP linked after 0.25 s")
        #expect(!outcome.frames.prefix(10).contains(where: Self.hasPiP), "no PiP before it is linked")
        #expect(outcome.frames.contains(where: Self.hasPiP), "the PiP shows up once it arrives")
    }

    /// A PiP branch is stopped, unlinked and its pad released while playing, then a new
    /// branch is linked to a new pad: the main picture keeps its pace throughout, the PiP is
    /// gone after its release and shows again once the new one arrives.
    @Test func pipPadReleasedAndRequestedAgainWhilePlaying() throws {
        let pip = "videotestsrc is-live=true pattern=white ! \(videoCaps(.nv12, 32, 24, fps: "60/1"))"
        let outcome = try Self.run(pip: "\(pip) ! queue name=first", frames: 60, whilePlaying: { pipeline in
            Thread.sleep(forTimeInterval: 0.25)
            let compositor = gst_bin_get_by_name(rc_bin(pipeline), "pip")!
            defer { gst_object_unref(compositor) }
            let queue = gst_bin_get_by_name(rc_bin(pipeline), "first")!
            let source = gst_element_get_static_pad(queue, "src")!
            let sink = gst_pad_get_peer(source)!
            // The branch stops first, so nothing is pushed into a pad being released.
            var upstream: [UnsafeMutablePointer<GstElement>] = [queue]
            var current = queue
            while let pad = gst_element_get_static_pad(current, "sink"), let peer = gst_pad_get_peer(pad) {
                let parent = gst_pad_get_parent_element(peer)!
                gst_object_unref(peer)
                gst_object_unref(pad)
                upstream.append(parent)
                current = parent
            }
            for element in upstream { gst_element_set_state(element, GST_STATE_NULL) }
            _ = gst_pad_unlink(source, sink)
            gst_element_release_request_pad(compositor, sink)
            gst_object_unref(sink)
            gst_object_unref(source)
            for element in upstream {
                gst_bin_remove(rc_bin(pipeline), element)
                if element != queue { gst_object_unref(element) }
            }
            gst_object_unref(queue)

            Thread.sleep(forTimeInterval: 0.25)
            Self.linkBranch("\(pip) ! queue", to: pipeline)
        })
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        Self.expectLivePace(outcome.arrivals, "PiP released and requested again")
        let shown = outcome.frames.map(Self.hasPiP)
        #expect(shown.prefix(10).contains(true), "the first PiP is shown")
        #expect(shown.dropFirst(18).prefix(8).allSatisfy { !$0 }, "gone after its release (frames 18-25): \(shown)")
        #expect(shown.suffix(15).contains(true), "the second PiP is shown: \(shown)")
    }

    /// xpos and ypos move from an application thread every 5 ms while 30 live frames are
    /// made: every frame holds the whole PiP, once (settings are copied once per frame).
    @Test func propertiesChangeWhilePlayingWithoutTearing() throws {
        final class Mover: Sendable {
            let stop = Atomic<Bool>(false)
            let done = DispatchSemaphore(value: 0)
        }
        let mover = Mover()
        let outcome = try Self.run(pip: "videotestsrc is-live=true pattern=white num-buffers=30 ! \(videoCaps(.nv12, 32, 24, fps: "60/1"))",
                                   whilePlaying: { pipeline in
            nonisolated(unsafe) let pipeline = pipeline
            Thread.detachNewThread {
                var step = 0
                while !mover.stop.load(ordering: .relaxed) {
                    step += 1
                    setPadProperty(pipeline, element: "pip", pad: "sink_1", "xpos", "\(2 * (step % 60))")
                    setPadProperty(pipeline, element: "pip", pad: "sink_1", "ypos", "\(2 * (step % 40))")
                    Thread.sleep(forTimeInterval: 0.005)
                }
                mover.done.signal()
            }
        }, finished: { _ in
            mover.stop.store(true, ordering: .relaxed)
            mover.done.wait()
        })
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        var positions = Set<PixelPoint>()
        for frame in outcome.frames {
            let found = PipCompositorPixelTests.region(of: Self.white, in: frame)
            if found.count == 0 { continue } // before the PiP's first buffer
            #expect(found.rect.size == PixelSize(width: 32, height: 24) && found.count == 32 * 24, "frame at \(frame.pts)")
            positions.insert(found.rect.origin)
        }
        #expect(positions.count > 5, "the PiP moved: \(positions.count) positions")
        print("moving PiP: \(outcome.frames.count) frames, \(positions.count) positions, none torn")
    }
}
