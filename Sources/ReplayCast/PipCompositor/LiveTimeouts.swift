// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// pipcompositor's aggregate around the base class's: what a live output does on a timeout
/// (before any input, while not PLAYING, while waiting for the main input's first buffer).
/// Aggregator thread only, as the frame state it reads.
extension PipCompositor {
    /// The base class's aggregate, except that an end of stream it answers only because no
    /// input has had a buffer yet moves the output on by one frame instead, a timeout
    /// while not PLAYING makes nothing (`LivePause`), and live, the output waits for the main
    /// input's first buffer (`MainTiming`).
    func aggregate(_ element: UnsafeMutablePointer<RcPipCompositor>, timeout: Bool) -> GstFlowReturn {
        if timeout, let paused = LivePause.timeoutOutcome(element, debug: .pipcompositor) { return paused }
        if !mainTimed, !timeToMain(element, timeout: timeout) { return rc_aggregator_flow_need_data() }
        let flow = rc_pipcompositor_parent_aggregate(element, timeout ? 1 : 0)
        guard flow == GST_FLOW_EOS, timeout, endedBeforeAnyInput(element),
              skipFrame(element, because: "no input yet") else { return flow }
        return rc_aggregator_flow_need_data()
    }

    /// False while the output waits for the main input's first buffer: the PiPs' buffers
    /// are dropped, and on a timeout the output moves on by one frame, making none (so the
    /// base class's next wait is a frame later: its position trails the clock by the latency).
    private func timeToMain(_ element: UnsafeMutablePointer<RcPipCompositor>, timeout: Bool) -> Bool {
        switch MainTiming.align(element, framesMade: madeFrame) {
        case .waiting:
            let before = hold
            guard MainTiming.holds(element, &hold) else {
                if case .until = before {
                    DebugLog.pipcompositor.debug(element, "live: the main input has ended or has no buffer by its limit: frames are made without it")
                }
                return true
            }
            if case .notYet = before, case .until(let end) = hold {
                DebugLog.pipcompositor.debug(element, "live: waiting for the main input's first buffer up to running time \(end) ns")
            }
            if timeout { guard skipFrame(element, because: "waiting for the main input's first buffer") else { return true } }
            let dropped = MainTiming.dropPiPBuffers(element)
            if dropped > 0 { DebugLog.pipcompositor.log(element, "waiting for the main input's first buffer: dropped \(dropped) PiP buffers") }
            return false
        case .settled:
            break
        case .moved(let start):
            DebugLog.pipcompositor.debug(element, "live: the output's frames step from the main input's first, at \(start) ns")
        }
        mainTimed = true
        return true
    }

    /// GstVideoAggregator (1.22) leaves inactive pads (ignore-inactive-pads, live) out when it
    /// decides that every input has ended, so a live timeout before any input's first buffer
    /// reads to it as the end of them all. The output has not ended while the main picture
    /// has not: true when the main input is not at EOS. Whether the inputs are still inactive
    /// is not asked again: a first buffer arriving between the base class's decision and this
    /// check made it one (the end then stood and the output had no frame at all).
    private func endedBeforeAnyInput(_ element: UnsafeMutablePointer<RcPipCompositor>) -> Bool {
        takeSnapshot(element)
        defer { releaseSnapshot() }
        guard count > 0, let main = pads[0].pad, gst_aggregator_pad_is_eos(rc_aggregator_pad(main)) == 0 else { return false }
        DebugLog.pipcompositor.debug(element, "timed out before the main input's first buffer: waiting for the next frame, not ending")
        return true
    }

    /// Moves the output on by one frame, as the base class does on a timeout before it has
    /// caps (at 25 fps without a frame rate); false where that would reach the segment's
    /// stop, or in a reverse segment: there the end stands.
    private func skipFrame(_ element: UnsafeMutablePointer<RcPipCompositor>, because reason: String) -> Bool {
        let rate = (n: element.pointee.parent.info.fps_n, d: element.pointee.parent.info.fps_d)
        let frame = GstClockTime(Timebase.nanoseconds(UInt64(rate.d > 0 ? rate.d : 1), atRate: UInt64(rate.n > 0 ? rate.n : 25)))
        let output = AggregatorOutput.segment(element)
        let moved: GstClockTime? = withObjectLock(element) {
            let segment = output.pointee
            guard segment.rate > 0 else { return nil }
            let position = AggregatorOutput.nextFrameStart(segment) &+ frame
            guard segment.stop == GstClockTime.max || position < segment.stop else { return nil }
            output.pointee.position = position
            return position
        }
        if let moved {
            DebugLog.pipcompositor.debug(element, "\(reason): the output moves on by one frame, to \(moved) ns")
        } else {
            DebugLog.pipcompositor.debug(element, "\(reason) and no frame to move on to (the segment's stop, or a reverse segment): end of stream")
        }
        return moved != nil
    }
}
