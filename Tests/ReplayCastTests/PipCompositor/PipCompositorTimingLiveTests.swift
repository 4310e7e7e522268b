// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import MediaKernels
@testable import ReplayCast
import Testing

/// Live, the output's frames carry the main picture's own times, whatever the phase of the
/// main source against running time 0 (GstVideoAggregator steps from 0), and whichever
/// input comes first. Main: 60 fps live white, from wherever its live source starts (a few
/// ms into running time); PiP: 60 fps live black, 32x24 at the top left.
@Suite struct PipCompositorTimingLiveTests {
    static let white = RGBColor.white.yuv(in: .bt709Limited).y

    struct Outcome {
        var run: PipelineRun
        var main: [UInt64]
        var output: [GrabbedFrame]
    }

    /// `held`: the main's buffers are dropped for that long after PLAYING (its caps pass),
    /// so the PiP's come first. `element`: pipcompositor or its peer, compositor, which ends
    /// only once every input has: there the PiP ends after as many frames as the main.
    static func run(mainHeldFor held: Double?, element: String = "pipcompositor", extra: String = "") throws -> Outcome {
        let valve = held == nil ? "" : "! valve name=hold drop=true drop-mode=forward-sticky-events "
        let description = "videotestsrc is-live=true pattern=white num-buffers=45 "
            + "! \(videoCaps(.nv12, 160, 120, fps: "60/1")) \(valve)! identity name=main "
            + "! \(element) name=pip \(extra) ! fakesink name=out "
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

    static func showsMain(_ frame: GrabbedFrame) -> Bool { frame.sample(0, 80, 60) == white }

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

    /// The PiP's frames come 0.25 s before the main's: frames were made before the main
    /// had any, so their steps stand (moving them then made hlssink2 cut a segment without
    /// a keyframe). The output stays on the 1/60 s steps from its first frame, forward only.
    @Test func afterPiPOnlyFramesTheOutputKeepsItsSteps() throws {
        let outcome = try Self.run(mainHeldFor: 0.25)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS && !outcome.run.timedOut)
        let times = outcome.output.map(\.pts)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "output times only go forward: \(times)")
        let firstMain = outcome.output.firstIndex(where: Self.showsMain) ?? outcome.output.count
        #expect(firstMain >= 5, "\(firstMain) PiP-only frames before the main's first")
        let withMain = outcome.output[firstMain...].filter(Self.showsMain)
        let offSteps = outcome.output.filter { !Self.onSteps($0.pts, from: outcome.output.first?.pts) }
        #expect(withMain.count >= 20 && offSteps.isEmpty,
                "\(offSteps.count) of \(outcome.output.count) frames off the steps from \(outcome.output.first?.pts ?? 0) ns")
        print("\(firstMain) PiP-only frames, then \(withMain.count) with the main, all on the output's own steps")
    }

    /// start-time-selection=first: the application chose how the output starts. The output
    /// steps on from the first buffer of either input (the PiP's, the main being held), as
    /// GstAggregator has it, and is not moved to the main's frames when they come.
    @Test func anotherStartTimeSelectionIsLeftAlone() throws {
        let outcome = try Self.run(mainHeldFor: 0.1, extra: "start-time-selection=first")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        let withMain = outcome.output.filter(Self.showsMain)
        #expect(withMain.count >= 20)
        let offSteps = outcome.output.filter { !Self.onSteps($0.pts, from: outcome.output.first?.pts) }
        #expect(offSteps.isEmpty, "\(offSteps.count) of \(outcome.output.count) frames off the 60 fps steps from \(outcome.output.first?.pts ?? 0) ns")
    }
}
