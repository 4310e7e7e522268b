// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// GObject property reads without the GValue plumbing at every call site (g_object_get is
/// variadic and does not import).
public enum ObjectProperties {
    /// A string property's value; nil when it is unset (or NULL).
    public static func string(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        read(object, name, rc_type_string()) { value in g_value_get_string(value).map { String(cString: $0) } }
    }

    public static func uint(_ object: UnsafeMutableRawPointer, _ name: String) -> guint {
        read(object, name, rc_type_uint()) { g_value_get_uint($0) }
    }

    static func uint64(_ object: UnsafeMutableRawPointer, _ name: String) -> guint64 {
        read(object, name, rc_type_uint64()) { g_value_get_uint64($0) }
    }

    /// An enum property's value, read as `type`.
    public static func enumValue(_ object: UnsafeMutableRawPointer, _ name: String, type: GType) -> gint {
        read(object, name, type) { g_value_get_enum($0) }
    }

    /// What `body` reads from a structure property's value (nil when unset), while it lives.
    public static func structure<Result>(_ object: UnsafeMutableRawPointer, _ name: String,
                                  _ body: (UnsafePointer<GstStructure>?) -> Result) -> Result {
        read(object, name, gst_structure_get_type()) { value in
            body(g_value_get_boxed(value).map { UnsafePointer($0.assumingMemoryBound(to: GstStructure.self)) })
        }
    }

    private static func read<Result>(_ object: UnsafeMutableRawPointer, _ name: String, _ type: GType,
                                     _ body: (UnsafeMutablePointer<GValue>) -> Result) -> Result {
        var value = GValue()
        g_value_init(&value, type)
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(object), name, &value)
        return body(&value)
    }
}
