// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// Where a live pipcompositor's output frames fall in time: on the main picture's frames.
///
/// GstVideoAggregator starts its output at running time 0 (start-time-selection=zero) and
/// steps one frame at a time from there, while a live main input's frames start wherever its
/// source started. Each output frame then shows the main frame that began up to a frame
/// earlier, stamped with the later time: that much is added to the latency of every picture,
/// and to its distance from its audio, a different amount in every run (docs/latency.md).
/// Stepped from the main input's first frame instead, each output frame carries its main
/// picture's own time.
enum MainTiming {
    enum Outcome {
        /// The main input has no buffer yet: ask again at the next output frame.
        case waiting
        /// Nothing to change: not live, another start-time-selection, frames already made
        /// (the PiPs', while the main had none: moving their steps then made hlssink2 cut a
        /// segment without a keyframe), or the output already at the main's first frame.
        case settled
        /// The output's first frame starts here (running time), and its frames step from it.
        case moved(to: GstClockTime)
    }

    /// Aggregator thread, before the base class's aggregate. `framesMade`: output frames
    /// were made since start.
    static func align(_ element: UnsafeMutablePointer<RcPipCompositor>, framesMade: Bool) -> Outcome {
        guard !framesMade, gst_aggregator_get_latency(rc_aggregator(element)) != GstClockTime.none,
              AggregatorOutput.startTime(element).selection == GST_AGGREGATOR_START_TIME_SELECTION_ZERO
        else { return .settled }
        guard let start = firstMainFrame(element) else { return .waiting }
        let output = AggregatorOutput.segment(element)
        rc_object_lock(element)
        var segment = output.pointee
        rc_object_unlock(element)
        guard segment.rate > 0 else { return .settled }
        let position = gst_segment_position_from_running_time(&segment, GST_FORMAT_TIME, start)
        guard position != GstClockTime.none, position != AggregatorOutput.nextFrameStart(segment) else { return .settled }
        AggregatorOutput.setPosition(element, position)
        return .moved(to: start)
    }

    /// The running time at which the main input's queued buffer starts; nil without one.
    private static func firstMainFrame(_ element: UnsafeMutablePointer<RcPipCompositor>) -> GstClockTime? {
        rc_object_lock(element)
        let first = rc_element(element).pointee.sinkpads.map { gst_object_ref($0.pointee.data) }
        rc_object_unlock(element)
        guard let first else { return nil }
        defer { gst_object_unref(first) }
        let pad = rc_aggregator_pad(first)!
        guard let buffer = gst_aggregator_pad_peek_buffer(pad) else { return nil }
        defer { gst_buffer_unref(buffer) }
        let pts = buffer.pointee.pts
        guard pts != GstClockTime.none else { return nil }
        rc_object_lock(pad)
        var segment = pad.pointee.segment
        rc_object_unlock(pad)
        guard segment.format == GST_FORMAT_TIME else { return nil }
        let running = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, Swift.max(pts, segment.start))
        return running == GstClockTime.none ? nil : running
    }
}
