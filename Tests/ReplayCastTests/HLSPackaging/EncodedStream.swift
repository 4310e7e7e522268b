// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport
import Synchronization

/// What a parser hands a muxer, caught at a fakesink's pad: each access unit's bytes, decode
/// and presentation times, duration and whether it is a sync sample, and the stream's
/// `codec_data` and caps.
final class EncodedStream: Sendable {
    struct Unit {
        var dts: UInt64
        var pts: UInt64
        var duration: UInt64
        var isSync: Bool
        var bytes: [UInt8]
    }

    private let state = Mutex<(units: [Unit], codecData: [UInt8], caps: String)>(([], [], ""))

    var units: [Unit] { state.withLock { $0.units } }
    var codecData: [UInt8] { state.withLock { $0.codecData } }
    var caps: String { state.withLock { $0.caps } }

    func attach(to bin: UnsafeMutablePointer<GstElement>, element name: String) {
        let element = gst_bin_get_by_name(rc_bin(bin), name)!
        let pad = gst_element_get_static_pad(element, "sink")!
        let mask = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        PadProbe.add(to: pad, mask) { [self] info, _ in take(info) }
        gst_object_unref(pad)
        gst_object_unref(element)
    }

    private func take(_ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            let buffer = info.pointee.data.assumingMemoryBound(to: GstBuffer.self)
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return }
            let bytes = Array(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
            gst_buffer_unmap(buffer, &map)
            let pts = UInt64(buffer.pointee.pts)
            let dts = buffer.pointee.dts == UInt64.max ? pts : UInt64(buffer.pointee.dts)
            let unit = Unit(dts: dts, pts: pts, duration: UInt64(buffer.pointee.duration),
                            isSync: buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue == 0, bytes: bytes)
            state.withLock { $0.units.append(unit) }
            return
        }
        let event = info.pointee.data.assumingMemoryBound(to: GstEvent.self)
        guard rc_event_type(event) == GST_EVENT_CAPS else { return }
        var caps: UnsafeMutablePointer<GstCaps>?
        gst_event_parse_caps(event, &caps)
        let text = gst_caps_to_string(caps)!
        var codecData: [UInt8] = []
        if let value = gst_structure_get_value(gst_caps_get_structure(caps, 0), "codec_data"),
           let buffer = g_value_get_boxed(value)?.assumingMemoryBound(to: GstBuffer.self) {
            var map = GstMapInfo()
            if gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 {
                codecData = Array(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
                gst_buffer_unmap(buffer, &map)
            }
        }
        state.withLock { $0.caps = String(cString: text); $0.codecData = codecData }
        g_free(text)
    }
}
