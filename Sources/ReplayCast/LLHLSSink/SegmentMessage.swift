// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// llhlssink-segment: a rendition's segment is complete and listed in its playlist, for
/// applications and the CLI's status screen (hlssink2's splitmuxsink posts
/// splitmuxsink-fragment-closed for the same moment).
enum SegmentMessage {
    static let renditionField = Quark.of("rendition")
    static let locationField = Quark.of("location")
    static let sequenceField = Quark.of("sequence")
    static let bytesField = Quark.of("bytes")
    static let durationField = Quark.of("duration")
    static let runningTimeField = Quark.of("running-time")

    static func post(_ element: UnsafeMutablePointer<RcLLHLSSink>, rendition: String, _ segment: Rendition.CompletedSegment) {
        let s = gst_structure_new_empty("llhlssink-segment")!
        s.set(renditionField, string: rendition)
        s.set(locationField, string: segment.path)
        s.set(sequenceField, uint64: guint64(segment.sequence))
        s.set(bytesField, uint64: guint64(segment.bytes))
        s.set(durationField, uint64: guint64((segment.duration * 1e9).rounded()))
        s.set(runningTimeField, uint64: guint64(segment.end))
        gst_element_post_message(rc_element(element), gst_message_new_element(rc_object(element), s))
    }
}
