// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// Typed message fields by quark: each setter fills one GValue on the stack and hands it to
/// the structure, so call sites never touch GValue plumbing and nothing is allocated besides
/// what the structure keeps.
extension UnsafeMutablePointer where Pointee == GstStructure {
    func set(_ field: GQuark, uint64 value: guint64) { take(field, rc_type_uint64()) { g_value_set_uint64($0, value) } }
    func set(_ field: GQuark, double value: Double) { take(field, rc_type_double()) { g_value_set_double($0, value) } }
    func set(_ field: GQuark, int value: gint) { take(field, rc_type_int()) { g_value_set_int($0, value) } }
    func set(_ field: GQuark, bool value: Bool) { take(field, rc_type_boolean()) { g_value_set_boolean($0, value ? 1 : 0) } }
    func set(_ field: GQuark, string value: String) { take(field, rc_type_string()) { g_value_set_string($0, value) } }

    /// The structure `value` becomes this one's field (and its to free).
    func set(_ field: GQuark, taking value: UnsafeMutablePointer<GstStructure>) {
        take(field, gst_structure_get_type()) { g_value_take_boxed($0, value) }
    }

    /// A GValueArray of doubles, the type `level` posts, so applications written for level
    /// read ours unchanged.
    func set(_ field: GQuark, doubles values: UnsafeBufferPointer<Double>) {
        rc_structure_set_double_array(self, field, values.baseAddress, guint(values.count))
    }

    private func take(_ field: GQuark, _ type: GType, _ fill: (UnsafeMutablePointer<GValue>) -> Void) {
        var value = GValue()
        g_value_init(&value, type)
        fill(&value)
        gst_structure_id_take_value(self, field, &value)
    }
}
