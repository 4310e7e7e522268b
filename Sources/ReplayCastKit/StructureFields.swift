// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit

/// Typed reads of message structure fields; nil (or a neutral value) when a field is absent.
enum StructureFields {
    static let maximumChannels = 8

    /// A GValueArray of gdouble, up to `maximumChannels` values.
    static func doubles(_ s: UnsafePointer<GstStructure>, _ field: String) -> [Double] {
        var values = [Double](repeating: 0, count: maximumChannels)
        let count = rc_structure_get_double_array(s, field, &values, gint(maximumChannels))
        return Array(values.prefix(Int(max(0, min(count, gint(maximumChannels))))))
    }

    static func double(_ s: UnsafePointer<GstStructure>, _ field: String) -> Double? {
        var value = 0.0
        return gst_structure_get_double(s, field, &value) != 0 ? value : nil
    }

    /// A guint64 of nanoseconds.
    static func time(_ s: UnsafePointer<GstStructure>, _ field: String) -> Duration? {
        var value: guint64 = 0
        return gst_structure_get_uint64(s, field, &value) != 0 ? .nanoseconds(Int64(clamping: value)) : nil
    }

    static func string(_ s: UnsafePointer<GstStructure>, _ field: String) -> String? {
        gst_structure_get_string(s, field).map { String(cString: $0) }
    }

    static func int(_ s: UnsafePointer<GstStructure>, _ field: String) -> Int {
        var value: gint = 0
        return gst_structure_get_int(s, field, &value) != 0 ? Int(value) : 0
    }

    /// A guint64 count.
    static func count(_ s: UnsafePointer<GstStructure>, _ field: String) -> Int {
        var value: guint64 = 0
        return gst_structure_get_uint64(s, field, &value) != 0 ? Int(clamping: value) : 0
    }

    static func boolean(_ s: UnsafePointer<GstStructure>, _ field: String) -> Bool {
        var value: gboolean = 0
        return gst_structure_get_boolean(s, field, &value) != 0 && value != 0
    }

    /// A GstStructure field, as GstStructure text.
    static func structureText(_ s: UnsafePointer<GstStructure>, _ field: String) -> String? {
        guard let value = gst_structure_get_value(s, field), let inner = g_value_get_boxed(value) else { return nil }
        let text = gst_structure_to_string(inner.assumingMemoryBound(to: GstStructure.self))!
        defer { g_free(text) }
        return String(cString: text)
    }
}
