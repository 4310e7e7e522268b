// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// The encoder whose bitrate adaptive-bitrate sets: the first element upstream of the video
/// pad, through one-input elements (parsers, queues, capsfilters), that is one of the known
/// encoders with a bitrate writable while playing.
final class VideoEncoder {
    /// Factory name → how many bit/s one unit of its `bitrate` property is.
    static let known: [String: Int] = ["x264enc": 1000, "x265enc": 1000, "openh264enc": 1, "vah264enc": 1000,
                                       "nvh264enc": 1000, "vaapih264enc": 1000]
    static let maxHops = 12

    let element: UnsafeMutablePointer<GstElement>
    let name: String
    private let unit: Int

    /// nil when no known encoder is upstream of `pad`.
    init?(upstreamOf pad: UnsafeMutablePointer<GstPad>) {
        var sinkPad = pad
        gst_object_ref(sinkPad)
        defer { gst_object_unref(sinkPad) }
        for _ in 0..<Self.maxHops {
            guard let peer = gst_pad_get_peer(sinkPad) else { return nil }
            let parent = gst_pad_get_parent_element(peer)
            gst_object_unref(peer)
            guard let parent else { return nil }
            let factory = gst_element_get_factory(parent).map { String(cString: rc_object_name(UnsafeMutableRawPointer($0))) }
            if let factory, let unit = Self.known[factory] {
                element = parent
                name = String(cString: rc_object_name(parent))
                self.unit = unit
                return
            }
            defer { gst_object_unref(parent) }
            guard parent.pointee.numsinkpads == 1, let next = gst_element_get_static_pad(parent, "sink") else { return nil }
            gst_object_unref(sinkPad)
            sinkPad = next
        }
        return nil
    }

    /// kbit/s.
    var bitrate: Int {
        get { Int(ObjectProperties.uint(element, "bitrate")) * unit / 1000 }
        set { gst_util_set_object_arg(rc_gobject(element), "bitrate", "\(newValue * 1000 / unit)") }
    }

    deinit { gst_object_unref(element) }
}
