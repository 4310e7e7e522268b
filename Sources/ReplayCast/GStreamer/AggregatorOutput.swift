// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// An aggregator's output segment and start time, which GstAggregator exposes only through
/// macros (the source pad's segment) and variadic getters (its properties).
enum AggregatorOutput {
    /// The source pad's segment: the aggregator thread's to read; `position` is written
    /// under the element's object lock (`setPosition`).
    static func segment(_ element: UnsafeMutableRawPointer) -> UnsafeMutablePointer<GstSegment> {
        rc_aggregator_pad(rc_aggregator_src_pad(element))!.pointer(to: \.segment)!
    }

    /// Where the next output frame starts: the position once one was made, the segment's
    /// start before that.
    static func nextFrameStart(_ segment: GstSegment) -> GstClockTime {
        segment.position != GstClockTime.max && segment.position >= segment.start ? segment.position : segment.start
    }

    /// A copy of the source pad's segment, taken under the element's object lock.
    static func currentSegment(_ element: UnsafeMutableRawPointer) -> GstSegment {
        let segment = segment(element)
        return withObjectLock(element) { segment.pointee }
    }

    static func setPosition(_ element: UnsafeMutableRawPointer, _ position: GstClockTime) {
        let segment = segment(element)
        withObjectLock(element) { segment.pointee.position = position }
    }

    /// start-time-selection and start-time, as the application set them.
    static func startTime(_ element: UnsafeMutableRawPointer) -> (selection: GstAggregatorStartTimeSelection, time: GstClockTime) {
        let selection = ObjectProperties.enumValue(element, "start-time-selection",
                                                   type: gst_aggregator_start_time_selection_get_type())
        return (GstAggregatorStartTimeSelection(rawValue: UInt32(bitPattern: selection)),
                ObjectProperties.uint64(element, "start-time"))
    }
}
