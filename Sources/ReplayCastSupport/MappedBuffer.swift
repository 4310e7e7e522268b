// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

extension UnsafeMutablePointer where Pointee == GstBuffer {
    /// Runs `body` on the buffer's memory mapped for reading; nil if it cannot be mapped.
    package func withReadableBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
        var map = GstMapInfo()
        guard gst_buffer_map(self, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(self, &map) }
        return body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Runs `body` on the buffer's memory mapped for writing; nil if it cannot be mapped.
    @discardableResult
    package func withWritableBytes<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R? {
        var map = GstMapInfo()
        guard gst_buffer_map(self, &map, GST_MAP_WRITE) != 0, let data = map.data else { return nil }
        defer { gst_buffer_unmap(self, &map) }
        return body(data)
    }

    package var presentationTime: GstClockTime { pointee.pts }
    package var isDiscont: Bool { rc_buffer_is_discont(self) != 0 }
    package var isGap: Bool { rc_buffer_is_gap(self) != 0 }
}

extension GstClockTime {
    package static let none = GstClockTime.max
    package var isValid: Bool { self != .none }
}
