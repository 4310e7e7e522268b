// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport

/// Where a live pipcompositor's output frames fall in time with `start-with-main`: on the
/// main picture's frames.
///
/// GstVideoAggregator starts its output at running time 0 (start-time-selection=zero), at
/// the first buffer of any input (`first`) or at a set time, and steps one frame at a time
/// from there, while a live main input's frames start wherever its source started. Each
/// output frame then shows the main frame that began up to a frame earlier, stamped with the
/// later time: that much is added to the latency of every picture, and to its distance from
/// its audio, a different amount in every run (docs/latency.md). Stepped from the main
/// input's first frame instead, each output frame carries its main picture's own time.
/// Without `start-with-main`, start-time-selection decides, as in every aggregator.
enum MainTiming {
    enum Outcome {
        /// The main input has no buffer yet, and the output none made: ask again at the next
        /// output frame (`hold`).
        case waiting
        /// Nothing to change: not live, start-with-main not set, frames already made
        /// (without the main, past `holdLimit`: moving their steps then would make hlssink2
        /// cut a segment without a keyframe), or the output already at the main's first frame.
        case settled
        /// The output's first frame starts here (running time), and its frames step from it.
        case moved(to: GstClockTime)
    }

    /// Aggregator thread, before the base class's aggregate. `framesMade`: output frames
    /// were made since start.
    static func align(_ element: UnsafeMutablePointer<RcPipCompositor>, framesMade: Bool) -> Outcome {
        guard !framesMade, startsWithMain(element), gst_aggregator_get_latency(rc_aggregator(element)) != GstClockTime.none
        else { return .settled }
        guard let start = firstMainFrame(element) else { return .waiting }
        var segment = AggregatorOutput.currentSegment(element)
        guard segment.rate > 0 else { return .settled }
        let position = gst_segment_position_from_running_time(&segment, GST_FORMAT_TIME, start)
        guard position != GstClockTime.none, position != AggregatorOutput.nextFrameStart(segment) else { return .settled }
        AggregatorOutput.setPosition(element, position)
        return .moved(to: start)
    }

    /// How long, in running time from the first `.waiting`, a live output waits for the main
    /// input's first buffer before it begins without it. The camera's first frame can come
    /// before the screen's, which a busy machine delays by more than the latency: frames made
    /// of the PiPs alone would then set the output's steps for the run, off the screen's.
    static let holdLimit = GstClockTime(Timebase.nanosecondsPerSecond)

    /// The wait for the main input's first buffer.
    enum Hold {
        case notYet
        /// Until this running time.
        case until(GstClockTime)
        /// The limit passed, or the main input ended, without a buffer: frames are made without it.
        case over
    }

    /// Whether the output should make no frame yet, on `.waiting`: the main input has not
    /// ended and the running time is before the limit (set at the first call).
    static func holds(_ element: UnsafeMutablePointer<RcPipCompositor>, _ hold: inout Hold) -> Bool {
        let now = gst_element_get_current_running_time(rc_element(element))
        guard now != GstClockTime.none else { return false }
        let end: GstClockTime
        switch hold {
        case .over: return false
        case .until(let time): end = time
        case .notYet: end = now &+ holdLimit
        }
        hold = .until(end)
        guard now < end, let main = firstSinkPad(element) else { hold = .over; return false }
        defer { gst_object_unref(main) }
        guard gst_aggregator_pad_is_eos(rc_aggregator_pad(main)) == 0 else { hold = .over; return false }
        return true
    }

    /// Drops every buffer queued on the PiP inputs. While the main input has had no buffer,
    /// GstVideoAggregator leaves it out of its wait (ignore-inactive-pads) and aggregates as
    /// soon as each PiP has one: a PiP buffer kept would have it ask again at once, without
    /// end. Those pictures come before the main's first frame, or with it: its first output
    /// frame may then show no PiP picture, until the PiP's next. Returns how many were dropped.
    static func dropPiPBuffers(_ element: UnsafeMutablePointer<RcPipCompositor>) -> Int {
        let pads = withObjectLock(element) {
            var pads: [UnsafeMutableRawPointer] = []
            var link = rc_element(element).pointee.sinkpads?.pointee.next
            while let node = link {
                pads.append(gst_object_ref(node.pointee.data))
                link = node.pointee.next
            }
            return pads
        }
        var dropped = 0
        for object in pads {
            while gst_aggregator_pad_drop_buffer(rc_aggregator_pad(object)) != 0 { dropped += 1 }
            gst_object_unref(object)
        }
        return dropped
    }

    private static func startsWithMain(_ element: UnsafeMutablePointer<RcPipCompositor>) -> Bool {
        withObjectLock(element) { element.pointee.settings.start_with_main != 0 }
    }

    private static func firstSinkPad(_ element: UnsafeMutablePointer<RcPipCompositor>) -> UnsafeMutableRawPointer? {
        withObjectLock(element) { rc_element(element).pointee.sinkpads.map { gst_object_ref($0.pointee.data) } }
    }

    /// The running time at which the main input's queued buffer starts; nil without one.
    private static func firstMainFrame(_ element: UnsafeMutablePointer<RcPipCompositor>) -> GstClockTime? {
        guard let first = firstSinkPad(element) else { return nil }
        defer { gst_object_unref(first) }
        return queuedStart(rc_aggregator_pad(first)!)
    }

    /// The running time at which a pad's queued buffer starts; nil without one.
    private static func queuedStart(_ pad: UnsafeMutablePointer<GstAggregatorPad>) -> GstClockTime? {
        guard let buffer = gst_aggregator_pad_peek_buffer(pad) else { return nil }
        defer { gst_buffer_unref(buffer) }
        let pts = buffer.pointee.pts
        guard pts != GstClockTime.none else { return nil }
        var segment = withObjectLock(pad) { pad.pointee.segment }
        guard segment.format == GST_FORMAT_TIME else { return nil }
        let running = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, Swift.max(pts, segment.start))
        return running == GstClockTime.none ? nil : running
    }
}
