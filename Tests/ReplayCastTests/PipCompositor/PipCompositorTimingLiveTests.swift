// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import MediaKernels
@testable import ReplayCast
import Testing

/// Live, with start-with-main, the output's frames carry the main picture's own times,
/// whatever the phase of the main source against running time 0 (GstVideoAggregator steps
/// from 0), and whichever input comes first: the output waits for the main's first frame up
/// to `MainTiming.holdLimit`. Without it, start-time-selection decides
/// (InheritedPropertyParityLiveTests compares that with compositor). Main: 60 fps live white, from wherever its live source starts (a
/// few ms into running time); PiP: 60 fps live black, 32x24 at the top left.
@Suite(.serialized) struct PipCompositorTimingLiveTests {
    static let white = RGBColor.white.yuv(in: .bt709Limited).y
    static let black = RGBColor.black.yuv(in: .bt709Limited).y

    struct Outcome {
        var run: PipelineRun
        var main: [UInt64]
        var output: [GrabbedFrame]
    }

    /// `held`: the main's buffers are dropped for that long after PLAYING (its caps pass),
    /// so the PiP's come first. `element`: pipcompositor or its peer, compositor, which ends
    /// only once every input has: there the PiP ends after as many frames as the main.
    /// `startWithMain`: pipcompositor's property of that name.
    static func run(mainHeldFor held: Double?, mainFrames: Int = 45, element: String = "pipcompositor",
                    startWithMain: Bool = true, extra: String = "") throws -> Outcome {
        let ours = element == "pipcompositor" && startWithMain ? "start-with-main=true " : ""
        let valve = held == nil ? "" : "! valve name=hold drop=true drop-mode=forward-sticky-events "
        let description = "videotestsrc is-live=true pattern=white num-buffers=\(mainFrames) "
            + "! \(videoCaps(.nv12, 160, 120, fps: "60/1")) \(valve)! identity name=main "
            + "! \(element) name=pip \(ours)\(extra) ! fakesink name=out "
            + "videotestsrc is-live=true pattern=black \(element == "compositor" ? "num-buffers=45 " : "")"
            + "! \(videoCaps(.nv12, 32, 24, fps: "60/1")) ! pip."
        let main = FrameGrabber(), output = FrameGrabber()
        let run = try PipelineRun.run(description, timeout: 10, prepare: { pipeline in
            main.attach(to: pipeline, element: "main", pad: "src")
            output.attach(to: pipeline, element: "out")
        }, whilePlaying: { pipeline in
            guard let held else { return }
            Thread.sleep(forTimeInterval: held)
            let valve = gst_bin_get_by_name(rc_bin(pipeline), "hold")!
            gst_util_set_object_arg(rc_gobject(valve), "drop", "false")
            gst_object_unref(valve)
        })
        return Outcome(run: run, main: main.frames.map(\.pts), output: output.frames)
    }

    /// compositor may make a frame before the main's caps arrive, of the PiP's size alone:
    /// such a frame shows neither.
    static func showsMain(_ frame: GrabbedFrame) -> Bool { frame.width == 160 && frame.sample(0, 80, 60) == white }
    static func showsPiP(_ frame: GrabbedFrame) -> Bool { frame.width == 160 && frame.sample(0, 16, 12) == black }

    /// `pts` within 1 µs of a 1/60 s step from `first`: a step counted on from a later frame
    /// than the first may round the other way (nanoseconds of 1/60 s). A frame made while
    /// the main was late, showing its last frame again, is on the main's steps too.
    static func onSteps(_ pts: UInt64, from first: UInt64?) -> Bool {
        guard let first, pts >= first else { return false }
        let step = first + Timebase.nanoseconds(Timebase.count(inNanoseconds: pts - first, atRate: 60, .nearest), atRate: 60)
        return (step > pts ? step - pts : pts - step) <= 1000
    }

    /// Off the base class's steps (those from 0): the output's frames could not fall on the
    /// main's by chance.
    static func offTheSteps(_ first: UInt64?) -> Bool {
        guard let first else { return false }
        return !onSteps(first, from: 0)
    }

    @Test func outputFramesTakeTheMainPicturesTimes() throws {
        let outcome = try Self.run(mainHeldFor: nil)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS && !outcome.run.timedOut)
        #expect(Self.offTheSteps(outcome.main.first), "main's first frame at \(outcome.main.first ?? 0) ns")
        let withMain = outcome.output.filter(Self.showsMain)
        let onMainTimes = withMain.filter { Self.onSteps($0.pts, from: outcome.main.first) }
        #expect(outcome.main.count == 45 && withMain.count >= 44, "\(outcome.main.count) main frames, \(withMain.count) shown")
        let starts = "main from \(outcome.main.first ?? 0) ns, output from \(outcome.output.first?.pts ?? 0) ns"
        #expect(onMainTimes.count == withMain.count, "\(onMainTimes.count) of \(withMain.count) output frames on the main's steps; \(starts)")
        print("main first at \(outcome.main.first ?? 0) ns: \(onMainTimes.count) of \(withMain.count) output frames on the main's steps")
    }

    /// GStreamer's compositor, same inputs: its frames step from running time 0, so none
    /// falls on the main's steps (each shows a main frame that began earlier).
    @Test func compositorStepsFromZeroOnTheSameInputs() throws {
        let outcome = try Self.run(mainHeldFor: nil, element: "compositor")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS && !outcome.run.timedOut)
        #expect(Self.offTheSteps(outcome.main.first), "main's first frame at \(outcome.main.first ?? 0) ns")
        let withMain = outcome.output.filter(Self.showsMain)
        let onMainSteps = withMain.filter { Self.onSteps($0.pts, from: outcome.main.first) }
        let fromZero = outcome.output.filter { Self.onSteps($0.pts, from: 0) }
        #expect(withMain.count >= 44 && onMainSteps.isEmpty && fromZero.count == outcome.output.count,
                "compositor: \(onMainSteps.count) of \(withMain.count) on the main's steps, \(fromZero.count) of \(outcome.output.count) on those from 0")
        print("compositor: \(onMainSteps.count) of \(withMain.count) output frames on the main's steps, \(fromZero.count) of \(outcome.output.count) on the steps from 0")
    }

    /// The PiP's frames come 0.25 s before the main's: the output waits for the main's first
    /// frame, and begins with it, on its steps. The PiP's frames before it are dropped, so the
    /// first output frame may lack the PiP's picture; from the second on it is there. 50 ms
    /// of latency: the main's frame leaves the valve a frame after its time, which without
    /// slack is already behind the output's position (GstVideoAggregator then skips it).
    @Test func theOutputBeginsWithTheMainsFirstFrame() throws {
        let outcome = try Self.run(mainHeldFor: 0.25, extra: "latency=50000000")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS && !outcome.run.timedOut)
        let first = outcome.output.first
        #expect(first.map(Self.showsMain) == true && first?.pts == outcome.main.first,
                "first output frame at \(first?.pts ?? 0) ns, main's first at \(outcome.main.first ?? 0) ns")
        #expect(outcome.main.first.map { $0 >= 250_000_000 } == true, "main's first frame at \(outcome.main.first ?? 0) ns")
        let withMain = outcome.output.filter(Self.showsMain)
        let onMainSteps = outcome.output.filter { Self.onSteps($0.pts, from: outcome.main.first) }
        #expect(withMain.count >= 20 && withMain.count == outcome.output.count && onMainSteps.count == outcome.output.count,
                "\(withMain.count) of \(outcome.output.count) frames show the main, \(onMainSteps.count) on its steps")
        let withPiP = outcome.output.filter(Self.showsPiP).count
        #expect(outcome.output.dropFirst().allSatisfy(Self.showsPiP), "\(withPiP) of \(outcome.output.count) frames show the PiP")
        print("main from \(outcome.main.first ?? 0) ns: \(onMainSteps.count) of \(outcome.output.count) output frames on its steps, "
              + "the first showing it; \(withPiP) show the PiP")
    }

    /// The main's frames come only after the wait's limit (1 s): the output begins without
    /// it, near the limit, and keeps its own steps when the main comes (moving them made
    /// hlssink2 cut a segment without a keyframe). Forward only.
    @Test func pastTheWaitsLimitTheOutputBeginsWithoutTheMain() throws {
        let outcome = try Self.run(mainHeldFor: 1.4, mainFrames: 120)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS && !outcome.run.timedOut)
        let times = outcome.output.map(\.pts)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "output times only go forward: \(times)")
        let limit = UInt64(MainTiming.holdLimit)
        #expect(times.first.map { $0 >= limit - 200_000_000 && $0 < limit + 200_000_000 } == true,
                "first output frame at \(times.first ?? 0) ns, the limit \(limit) ns after the first wait")
        let firstMain = outcome.output.firstIndex(where: Self.showsMain) ?? outcome.output.count
        #expect(firstMain >= 5, "\(firstMain) PiP-only frames before the main's first")
        let withMain = outcome.output[firstMain...].filter(Self.showsMain)
        let offSteps = outcome.output.filter { !Self.onSteps($0.pts, from: outcome.output.first?.pts) }
        #expect(withMain.count >= 20 && offSteps.isEmpty,
                "\(offSteps.count) of \(outcome.output.count) frames off the steps from \(outcome.output.first?.pts ?? 0) ns")
        print("first frame at \(times.first ?? 0) ns: \(firstMain) PiP-only frames, then \(withMain.count) with the main, all on the output's own steps")
    }

    /// Without start-with-main (its default), start-time-selection=first is GstAggregator's:
    /// the output steps on from the first buffer of either input (the PiP's, the main being
    /// held), and is not moved to the main's frames when they come.
    @Test func withoutStartWithMainTheAggregatorsSelectionStands() throws {
        let outcome = try Self.run(mainHeldFor: 0.1, startWithMain: false, extra: "start-time-selection=first")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        let withMain = outcome.output.filter(Self.showsMain)
        #expect(withMain.count >= 20)
        let offSteps = outcome.output.filter { !Self.onSteps($0.pts, from: outcome.output.first?.pts) }
        #expect(offSteps.isEmpty, "\(offSteps.count) of \(outcome.output.count) frames off the 60 fps steps from \(outcome.output.first?.pts ?? 0) ns")
    }
}
