import CGStreamer
import CReplayCast

/// GObject property reads without the GValue plumbing at every call site.
public enum ObjectProperties {
    /// A string property's value; nil when it is unset (or NULL).
    public static func string(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        var value = GValue()
        g_value_init(&value, rc_type_string())
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(object), name, &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }
}
