// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
@testable import ReplayCast
import Testing

/// pipcompositor against GStreamer's `compositor` in the same pipeline, on the same inputs
/// (identical videotestsrc branches, every input with the same colorimetry, so compositor
/// converts nothing): unscaled PiPs must come out bit-exact, whichever way ours made the
/// frame (main memory taken, held output reused or copied, main copied).
@Suite struct PipCompositorParityTests {
    struct Outcome {
        var ours: [GrabbedFrame]
        var theirs: [GrabbedFrame]
        var plans: PlanCounts

        /// Bytes that differ, over all frames (and a frame or plane count mismatch counts as a
        /// difference, a plane length mismatch as that many bytes).
        var differingBytes: Int {
            guard ours.count == theirs.count else { return Int.max }
            var count = 0
            for (a, b) in zip(ours, theirs) {
                guard a.planes.count == b.planes.count else { return Int.max }
                for (x, y) in zip(a.planes, b.planes) where x != y {
                    count += abs(x.count - y.count)
                    x.withUnsafeBufferPointer { x in
                        y.withUnsafeBufferPointer { y in
                            for index in 0..<min(x.count, y.count) where x[index] != y[index] { count += 1 }
                        }
                    }
                }
            }
            return count
        }

        var comparedBytes: Int { ours.reduce(0) { $0 + $1.planes.reduce(0) { $0 + $1.count } } }

        /// How often each difference (ours − theirs) occurs, for packed 4-byte pixels: colour
        /// bytes and alpha bytes apart. Frames must match in count and size (as differingBytes).
        func packedDifferences() -> (colour: [Int: Int], alpha: [Int: Int]) {
            var colour: [Int: Int] = [:], alpha: [Int: Int] = [:]
            for (a, b) in zip(ours, theirs) {
                for (x, y) in zip(a.planes, b.planes) {
                    for index in 0..<min(x.count, y.count) where x[index] != y[index] {
                        let delta = Int(x[index]) - Int(y[index])
                        if index % 4 == 3 { alpha[delta, default: 0] += 1 } else { colour[delta, default: 0] += 1 }
                    }
                }
            }
            return (colour, alpha)
        }
    }

    /// Runs `main` and `pips` (launch fragments ending in caps; NAME in `main` becomes the
    /// compositor's name) into both compositors with the same pad properties. `sink` is the downstream of both; `change` sets properties
    /// on both after the given output frame.
    static func compare(main: String, pips: [String], properties: String, output: String, sink: String = "fakesink",
                        change: (after: Int, pad: String, name: String, value: String)? = nil) throws -> Outcome {
        var description = ""
        for name in ["ours", "theirs"] {
            let element = name == "ours" ? "pipcompositor" : "compositor"
            let props = properties.split(separator: " ").map { "\($0)" }.joined(separator: " ")
            description += "\(main.replacingOccurrences(of: "NAME", with: name)) ! \(element) name=\(name) background=black \(props) ! \(output) ! \(sink) name=\(name)_sink "
            for pip in pips { description += "\(pip) ! \(name). " }
        }
        let ours = FrameGrabber(), theirs = FrameGrabber()
        var plans = PlanCounts()
        let run = try PipelineRun.run(description, prepare: { pipeline in
            watchPlans(pipeline, "ours")
            for (grabber, name) in [(ours, "ours"), (theirs, "theirs")] {
                nonisolated(unsafe) let pipeline = pipeline
                grabber.attach(to: pipeline, element: "\(name)_sink", onBuffer: { index in
                    guard let change, index == change.after else { return }
                    setPadProperty(pipeline, element: name, pad: change.pad, change.name, change.value)
                })
            }
        }, finished: { plans = planCounts($0, "ours") })
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.reachedEOS)
        return Outcome(ours: ours.frames, theirs: theirs.frames, plans: plans)
    }

    static let formats: [PixelFormat] = [.nv12, .i420, .rgba, .bgra]

    /// Three PiPs: odd position and size, partly outside top-left (negative), partly outside
    /// bottom-right; alpha 1 and 0.5. Where `compositor` itself changed (RGBA and BGRA
    /// blended at alpha 0.5 after 1.22), ours keeps its rounding: every differing byte is a
    /// colour byte exactly one above compositor's, and the alpha bytes are identical.
    @Test(arguments: formats, [1.0, 0.5])
    func unscaledPiPsAreBitExact(format: PixelFormat, alpha: Double) throws {
        let main = "videotestsrc pattern=smpte num-buffers=4 ! \(videoCaps(format, 320, 240))"
        let pips = ["videotestsrc pattern=ball num-buffers=4 ! \(videoCaps(format, 61, 37))",
                    "videotestsrc pattern=pinwheel num-buffers=4 ! \(videoCaps(format, 60, 36))",
                    "videotestsrc pattern=zone-plate kx2=20 ky2=20 kt=1 num-buffers=4 ! \(videoCaps(format, 61, 37))"]
        let properties = "sink_1::xpos=101 sink_1::ypos=57 sink_1::alpha=\(alpha) sink_2::xpos=-3 sink_2::ypos=-5 "
            + "sink_2::alpha=\(alpha) sink_3::xpos=281 sink_3::ypos=221 sink_3::alpha=\(alpha)"
        let outcome = try Self.compare(main: main, pips: pips, properties: properties, output: videoCaps(format, 320, 240))
        #expect(outcome.ours.count == 4)
        if alpha < 1 && [.rgba, .bgra].contains(format) && GStreamerRelease.compositorDarkensBlendedRGB {
            let (colour, alphaBytes) = outcome.packedDifferences()
            #expect(outcome.differingBytes != Int.max, "same frame count and plane sizes")
            #expect(Set(colour.keys).isSubset(of: [1]), "\(format): ours − compositor's \(colour)")
            #expect(alphaBytes.isEmpty, "\(format): alpha bytes differ \(alphaBytes)")
        } else {
            #expect(outcome.differingBytes == 0, "\(format) alpha \(alpha)")
        }
        #expect(outcome.plans.taken == 4, "the main buffer's memory was the output: \(outcome.plans)")
        print("parity \(format) alpha \(alpha): \(outcome.differingBytes) of \(outcome.comparedBytes) bytes differ; plans \(outcome.plans)")
    }

    /// Main at 5 fps under a 30 fps PiP that moves: each main picture is shown 6 times, the
    /// old PiP must vanish (saved areas restored). fakesink keeps the last buffer by default,
    /// so the held output is still referenced and is copied; without last-sample it is reused.
    @Test(arguments: [true, false])
    func repeatedMainPicturesAreBitExactWhileThePiPMoves(sinkKeepsLastBuffer: Bool) throws {
        let main = "videotestsrc pattern=smpte num-buffers=3 ! \(videoCaps(.nv12, 320, 240, fps: "5/1"))"
        let pips = ["videotestsrc pattern=ball num-buffers=18 ! \(videoCaps(.nv12, 61, 37))"]
        let outcome = try Self.compare(main: main, pips: pips, properties: "sink_1::xpos=101 sink_1::ypos=57",
                                       output: videoCaps(.nv12, 320, 240),
                                       sink: "fakesink enable-last-sample=\(sinkKeepsLastBuffer)",
                                       change: (after: 3, pad: "sink_1", name: "xpos", value: "201"))
        #expect(outcome.ours.count == 18)
        #expect(outcome.differingBytes == 0)
        #expect(outcome.plans.taken == 3)
        if sinkKeepsLastBuffer {
            #expect(outcome.plans.copyHeld == 15, "\(outcome.plans)")
        } else {
            #expect(outcome.plans.reuseHeld == 15, "\(outcome.plans)")
        }
        print("repeats (sink keeps last buffer: \(sinkKeepsLastBuffer)): \(outcome.differingBytes) of \(outcome.comparedBytes) bytes differ; plans \(outcome.plans)")
    }

    /// A PiP wider than the vector copies' steps (481 pixels: luma and NV12 chroma rows of
    /// 481-482 bytes, I420 chroma of 241, RGBA rows of 1924), at an odd position, over a main
    /// picture repeated 6 times while the PiP moves: drawn and restored bit-exact.
    @Test(arguments: [PixelFormat.nv12, .i420, .rgba])
    func widePiPIsBitExactAcrossRepeats(format: PixelFormat) throws {
        let main = "videotestsrc pattern=smpte num-buffers=2 ! \(videoCaps(format, 960, 540, fps: "5/1"))"
        let pips = ["videotestsrc pattern=ball num-buffers=12 ! \(videoCaps(format, 481, 271))"]
        let outcome = try Self.compare(main: main, pips: pips, properties: "sink_1::xpos=401 sink_1::ypos=57",
                                       output: videoCaps(format, 960, 540), sink: "fakesink enable-last-sample=false",
                                       change: (after: 3, pad: "sink_1", name: "xpos", value: "201"))
        #expect(outcome.ours.count == 12)
        #expect(outcome.differingBytes == 0, "\(format)")
        #expect(outcome.plans.taken == 2 && outcome.plans.reuseHeld == 10, "\(outcome.plans)")
        print("wide PiP \(format): \(outcome.differingBytes) of \(outcome.comparedBytes) bytes differ; plans \(outcome.plans)")
    }

    /// A main buffer that a tee shares with another branch is not ours to write: one copy.
    @Test func sharedMainBufferIsCopiedOnce() throws {
        // The other branch's appsink keeps every buffer (nobody pulls), so each is shared when drawn.
        let main = "videotestsrc pattern=smpte num-buffers=4 ! \(videoCaps(.nv12, 320, 240)) ! tee name=t_NAME "
            + "t_NAME. ! queue ! appsink sync=false wait-on-eos=false t_NAME. ! queue"
        let pips = ["videotestsrc pattern=ball num-buffers=4 ! \(videoCaps(.nv12, 61, 37))"]
        let outcome = try Self.compare(main: main, pips: pips, properties: "sink_1::xpos=101 sink_1::ypos=57",
                                       output: videoCaps(.nv12, 320, 240))
        #expect(outcome.ours.count == 4)
        #expect(outcome.differingBytes == 0)
        #expect(outcome.plans.copyMain == 4, "\(outcome.plans)")
    }
}
