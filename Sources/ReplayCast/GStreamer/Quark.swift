// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

/// Interned field names: a structure field set by quark skips the string lookup.
enum Quark {
    static func of(_ name: StaticString) -> GQuark {
        name.withUTF8Buffer { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { g_quark_from_static_string($0.baseAddress) }
        }
    }

    /// For names built at run time (GLib copies the string).
    static func of(dynamic name: String) -> GQuark { g_quark_from_string(name) }
}
