// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

/// A GEnum type for a property: its type name (shown by gst-inspect-1.0, so our own, never
/// a peer's: both plugins may live in one process) and its values, registered when a class
/// first installs a property of it.
struct EnumType: Sendable {
    struct Value: Sendable {
        let value: Int32
        let description: String
        let nick: String

        init(_ value: some RawRepresentable<UInt32>, _ description: String, _ nick: String) {
            self.init(Int32(truncatingIfNeeded: value.rawValue), description, nick)
        }

        init(_ value: Int32, _ description: String, _ nick: String) {
            (self.value, self.description, self.nick) = (value, description, nick)
        }
    }

    let name: String
    let values: [Value]

    init(_ name: String, _ values: [Value]) {
        (self.name, self.values) = (name, values)
    }

    func nick(of value: Int32) -> String? {
        values.first { $0.value == value }?.nick
    }

    /// The registered type. Registration happens in a class_init, which GLib runs once per
    /// class under its type lock, and each enum type belongs to one class.
    var type: GType {
        let registered = g_type_from_name(name)
        if registered != 0 { return registered }
        // GLib keeps the table, and its strings, for the life of the type: the process's.
        // Copies, not interned strings: quarks order what gst-inspect-1.0 lists.
        let table = UnsafeMutablePointer<GEnumValue>.allocate(capacity: values.count + 1)
        for (index, value) in values.enumerated() {
            table[index] = GEnumValue(value: value.value, value_name: UnsafePointer(g_strdup(value.description)),
                                      value_nick: UnsafePointer(g_strdup(value.nick)))
        }
        table[values.count] = GEnumValue(value: 0, value_name: nil, value_nick: nil)
        return g_enum_register_static(name, table)
    }
}
