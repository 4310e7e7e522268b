// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCast
import ReplayCastSupport

/// Records what flows through a pad (buffers with their timing and flags, and events) from
/// a pad probe, so tests can assert on timestamps, gaps, caps and tags.
final class PadRecorder: Sendable {
    struct BufferRecord: Equatable {
        var pts: UInt64
        var duration: UInt64
        var size: Int
        var discont: Bool
        var gap: Bool
        /// What `inspect` returned for the buffer's bytes.
        var note: String?
    }

    enum Record: Equatable {
        case buffer(BufferRecord)
        case caps(String)
        case gap(pts: UInt64, duration: UInt64)
        case tag(String)
        case eos
        case other(String)
    }

    private let records = Locked<[Record]>([])
    private let inspect: (@Sendable (UnsafeRawBufferPointer) -> String?)?

    init(inspect: (@Sendable (UnsafeRawBufferPointer) -> String?)? = nil) {
        self.inspect = inspect
    }

    var all: [Record] { records.withLock { $0 } }

    var buffers: [BufferRecord] {
        all.compactMap { if case .buffer(let b) = $0 { return b } else { return nil } }
    }

    var gaps: [(pts: UInt64, duration: UInt64)] {
        all.compactMap { if case .gap(let p, let d) = $0 { return (p, d) } else { return nil } }
    }

    var caps: [String] {
        all.compactMap { if case .caps(let c) = $0 { return c } else { return nil } }
    }

    var tags: [String] {
        all.compactMap { if case .tag(let t) = $0 { return t } else { return nil } }
    }

    var sawEOS: Bool { all.contains(.eos) }

    func clear() { records.withLock { $0.removeAll() } }

    /// Attaches to the src pad `padName` of the element named `elementName` in `bin`.
    func attach(to bin: UnsafeMutablePointer<GstElement>, element elementName: String, pad padName: String) {
        let element = gst_bin_get_by_name(rc_bin(bin), elementName)!
        let pad = gst_element_get_static_pad(element, padName)!
        let mask = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        let context = Unmanaged.passRetained(self).toOpaque()
        gst_pad_add_probe(pad, mask, { _, info, context in
            let recorder = Unmanaged<PadRecorder>.fromOpaque(context!).takeUnretainedValue()
            recorder.record(info!)
            return GST_PAD_PROBE_OK
        }, context, { context in Unmanaged<PadRecorder>.fromOpaque(context!).release() })
        gst_object_unref(pad)
        gst_object_unref(element)
    }

    private func record(_ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            let buffer = info.pointee.data.assumingMemoryBound(to: GstBuffer.self)
            var note: String?
            if let inspect {
                var map = GstMapInfo()
                if gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 {
                    note = inspect(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
                    gst_buffer_unmap(buffer, &map)
                }
            }
            let flags = buffer.pointee.mini_object.flags
            let entry = BufferRecord(pts: UInt64(buffer.pointee.pts), duration: UInt64(buffer.pointee.duration),
                                     size: Int(gst_buffer_get_size(buffer)),
                                     discont: flags & GST_BUFFER_FLAG_DISCONT.rawValue != 0,
                                     gap: flags & GST_BUFFER_FLAG_GAP.rawValue != 0, note: note)
            records.withLock { $0.append(.buffer(entry)) }
            return
        }
        let event = info.pointee.data.assumingMemoryBound(to: GstEvent.self)
        let entry: Record
        switch rc_event_type(event) {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            let text = gst_caps_to_string(caps)!
            entry = .caps(String(cString: text))
            g_free(text)
        case GST_EVENT_GAP:
            var pts: GstClockTime = 0, duration: GstClockTime = 0
            gst_event_parse_gap(event, &pts, &duration)
            entry = .gap(pts: UInt64(pts), duration: UInt64(duration))
        case GST_EVENT_TAG:
            var list: UnsafeMutablePointer<GstTagList>?
            gst_event_parse_tag(event, &list)
            let text = gst_tag_list_to_string(list)!
            entry = .tag(String(cString: text))
            g_free(text)
        case GST_EVENT_EOS:
            entry = .eos
        default:
            entry = .other(String(cString: gst_event_type_get_name(rc_event_type(event))))
        }
        records.withLock { $0.append(entry) }
    }
}

extension [PadRecorder.BufferRecord] {
    /// Where timestamps stop increasing: each buffer (counted from 1) whose next one's pts is
    /// not after its own.
    var ptsNotIncreasing: [Int] { indices.dropLast().filter { self[$0].pts >= self[$0 + 1].pts }.map { $0 + 1 } }
}
