// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// The elements inside a bin, at any depth, as an array: GstIterator's GValue plumbing in
/// one place. The bin keeps the elements alive; the pointers are not extra references.
package enum BinElements {
    /// Every element in `bin` (recursively).
    package static func all(in bin: UnsafeMutablePointer<GstElement>) -> [UnsafeMutablePointer<GstElement>] {
        collect(gst_bin_iterate_recurse(rc_bin(bin)))
    }

    /// The elements in `bin` made by the factory named `factory`.
    package static func made(by factory: String, in bin: UnsafeMutablePointer<GstElement>) -> [UnsafeMutablePointer<GstElement>] {
        collect(gst_bin_iterate_all_by_element_factory_name(rc_bin(bin), factory))
    }

    private static func collect(_ iterator: UnsafeMutablePointer<GstIterator>?) -> [UnsafeMutablePointer<GstElement>] {
        guard let iterator else { return [] }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        defer { g_value_unset(&value) }
        var found: [UnsafeMutablePointer<GstElement>] = []
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let element = g_value_get_object(&value)?.assumingMemoryBound(to: GstElement.self) { found.append(element) }
            g_value_reset(&value)
        }
        return found
    }
}
