// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// What a pipcompositor sink pad takes: any of the template's formats at any size, rate and
/// colorimetry, since every input is placed, scaled and, if needed, converted by us
/// (GstVideoAggregator's own answer for non-converting pads is downstream's caps, size
/// included, which would refuse a PiP). Formats downstream takes come first, so an upstream
/// that can choose picks one that needs no conversion.
enum PipInputCaps {
    static func caps(_ element: UnsafeMutablePointer<RcPipCompositor>,
                     filter: UnsafeMutablePointer<GstCaps>?) -> UnsafeMutablePointer<GstCaps> {
        let supported = rc_pipcompositor_template_caps()!
        let downstream = rc_caps_make_writable(gst_pad_peer_query_caps(rc_aggregator_src_pad(element), supported))!
        var anySize = GValue(), anyRate = GValue()
        g_value_init(&anySize, gst_int_range_get_type())
        g_value_init(&anyRate, gst_fraction_range_get_type())
        defer {
            g_value_unset(&anySize)
            g_value_unset(&anyRate)
        }
        gst_value_set_int_range(&anySize, 1, gint.max)
        gst_value_set_fraction_range_full(&anyRate, 0, 1, gint.max, 1)
        for index in 0..<gst_caps_get_size(downstream) {
            let structure = gst_caps_get_structure(downstream, index)
            gst_structure_set_value(structure, "width", &anySize)
            gst_structure_set_value(structure, "height", &anySize)
            gst_structure_set_value(structure, "framerate", &anyRate)
            for field in ["colorimetry", "chroma-site", "pixel-aspect-ratio"] {
                gst_structure_remove_field(structure, field)
            }
        }
        let preferred = gst_caps_intersect(downstream, supported)
        gst_caps_unref(downstream)
        let caps = gst_caps_merge(preferred, supported)!
        guard let filter else { return caps }
        defer { gst_caps_unref(caps) }
        return gst_caps_intersect_full(filter, caps, GST_CAPS_INTERSECT_FIRST)
    }
}

@_cdecl("rc_pipcompositor_sink_caps")
func pipcompositorSinkCaps(_ element: UnsafeMutablePointer<RcPipCompositor>,
                           _ filter: UnsafeMutablePointer<GstCaps>?) -> UnsafeMutablePointer<GstCaps> {
    PipInputCaps.caps(element, filter: filter)
}
