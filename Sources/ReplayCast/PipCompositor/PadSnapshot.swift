// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// One sink pad as the aggregator thread sees it for one output frame: its settings, caps
/// and current buffer, copied under the object locks so drawing holds none.
struct PadSnapshot {
    /// Referenced until `release`.
    var pad: UnsafeMutablePointer<RcPipCompositorPad>?
    var settings: RcPipPadSettings
    /// The negotiated input; format UNKNOWN before caps.
    var info: GstVideoInfo
    /// The pad's current buffer, borrowed; nil when there is none or it is a GAP.
    var buffer: UnsafeMutablePointer<GstBuffer>?

    /// Copies the element's settings and output info and, for the first `capacity` sink pads
    /// in z-order, a snapshot into `pads`. Returns how many sink pads there are, which may
    /// exceed `capacity` (call again with more room).
    static func take(_ element: UnsafeMutablePointer<RcPipCompositor>, settings: inout RcPipCompositorSettings,
                     output: inout GstVideoInfo, into pads: UnsafeMutablePointer<PadSnapshot>?, capacity: Int) -> Int {
        withObjectLock(element) {
            settings = element.pointee.settings
            output = element.pointee.parent.info
            var total = 0
            var link = rc_element(element).pointee.sinkpads
            while let node = link {
                defer { total += 1; link = node.pointee.next }
                guard let pads, total < capacity else { continue }
                let pad = node.pointee.data.assumingMemoryBound(to: RcPipCompositorPad.self)
                let current = gst_video_aggregator_pad_get_current_buffer(UnsafeMutablePointer(OpaquePointer(pad)))
                let gap = current.map { gst_buffer_get_size($0) == 0 && rc_buffer_is_gap($0) != 0 } ?? false
                let padSettings = withObjectLock(pad) { pad.pointee.settings }
                gst_object_ref(pad)
                (pads + total).initialize(to: PadSnapshot(pad: pad, settings: padSettings, info: pad.pointee.parent.info,
                                                          buffer: gap ? nil : current))
            }
            return total
        }
    }

    static func release(_ pads: UnsafeMutablePointer<PadSnapshot>, count: Int) {
        for index in 0..<count {
            if let pad = pads[index].pad { gst_object_unref(pad) }
            pads[index].pad = nil
        }
    }
}
