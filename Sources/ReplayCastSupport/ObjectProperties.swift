// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// GObject property reads and writes without the GValue plumbing at every call site
/// (g_object_get and g_object_set are variadic and do not import).
package enum ObjectProperties {
    /// A string property's value; nil when it is unset (or NULL).
    package static func string(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        read(object, name, rc_type_string()) { value in g_value_get_string(value).map { String(cString: $0) } }
    }

    package static func bool(_ object: UnsafeMutableRawPointer, _ name: String) -> Bool {
        read(object, name, rc_type_boolean()) { g_value_get_boolean($0) != 0 }
    }

    package static func int(_ object: UnsafeMutableRawPointer, _ name: String) -> gint {
        read(object, name, rc_type_int()) { g_value_get_int($0) }
    }

    package static func uint(_ object: UnsafeMutableRawPointer, _ name: String) -> guint {
        read(object, name, rc_type_uint()) { g_value_get_uint($0) }
    }

    package static func uint64(_ object: UnsafeMutableRawPointer, _ name: String) -> guint64 {
        read(object, name, rc_type_uint64()) { g_value_get_uint64($0) }
    }

    /// An enum property's value, read as `type`.
    package static func enumValue(_ object: UnsafeMutableRawPointer, _ name: String, type: GType) -> gint {
        read(object, name, type) { g_value_get_enum($0) }
    }

    /// What `body` reads from a structure property's value (nil when unset), while it lives.
    package static func structure<Result>(_ object: UnsafeMutableRawPointer, _ name: String,
                                  _ body: (UnsafePointer<GstStructure>?) -> Result) -> Result {
        read(object, name, gst_structure_get_type()) { value in
            body(g_value_get_boxed(value).map { UnsafePointer($0.assumingMemoryBound(to: GstStructure.self)) })
        }
    }

    package static func set(_ object: UnsafeMutableRawPointer, _ name: String, string: String) {
        write(object, name, rc_type_string()) { g_value_set_string($0, string) }
    }

    package static func set(_ object: UnsafeMutableRawPointer, _ name: String, bool: Bool) {
        write(object, name, rc_type_boolean()) { g_value_set_boolean($0, bool ? 1 : 0) }
    }

    /// Sets a caps property from its text.
    package static func set(_ object: UnsafeMutableRawPointer, _ name: String, caps text: String) {
        write(object, name, gst_caps_get_type()) { g_value_take_boxed($0, gst_caps_from_string(text)) }
    }

    private static func write(_ object: UnsafeMutableRawPointer, _ name: String, _ type: GType,
                              _ fill: (UnsafeMutablePointer<GValue>) -> Void) {
        var value = GValue()
        g_value_init(&value, type)
        defer { g_value_unset(&value) }
        fill(&value)
        g_object_set_property(rc_gobject(object), name, &value)
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
