// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit

/// A message structure copied into Swift values, so tests compare plain numbers.
struct Fields: CustomStringConvertible {
    let name: String
    private(set) var values: [String: Value] = [:]

    enum Value: Equatable {
        case uint64(UInt64), int(Int), double(Double), bool(Bool), string(String), doubles([Double]), other(String)
    }

    init(_ s: UnsafePointer<GstStructure>) {
        name = String(cString: gst_structure_get_name(s))
        for index in 0..<gst_structure_n_fields(s) {
            let field = String(cString: gst_structure_nth_field_name(s, guint(index)))
            let value = gst_structure_get_value(s, field)!
            values[field] = Self.convert(s, field, value)
        }
    }

    private static func convert(_ s: UnsafePointer<GstStructure>, _ field: String, _ value: UnsafePointer<GValue>) -> Value {
        switch value.pointee.g_type {
        case rc_type_uint64(): return .uint64(UInt64(g_value_get_uint64(value)))
        case rc_type_int(): return .int(Int(g_value_get_int(value)))
        case rc_type_double(): return .double(g_value_get_double(value))
        case rc_type_boolean(): return .bool(g_value_get_boolean(value) != 0)
        case rc_type_string(): return .string(g_value_get_string(value).map { String(cString: $0) } ?? "")
        default:
            var buffer = [Double](repeating: 0, count: 64)
            let count = rc_structure_get_double_array(s, field, &buffer, 64)
            if count >= 0 { return .doubles(Array(buffer.prefix(Int(count)))) }
            let text = gst_value_serialize(value)
            defer { g_free(text) }
            return .other(text.map { String(cString: $0) } ?? "")
        }
    }

    subscript(_ field: String) -> Value? { values[field] }

    func double(_ field: String) -> Double? {
        if case .double(let v) = values[field] { return v }
        return nil
    }

    func uint64(_ field: String) -> UInt64? {
        if case .uint64(let v) = values[field] { return v }
        return nil
    }

    func doubles(_ field: String) -> [Double] {
        if case .doubles(let v) = values[field] { return v }
        return []
    }

    var description: String { "\(name) \(values.sorted { $0.key < $1.key })" }
}
