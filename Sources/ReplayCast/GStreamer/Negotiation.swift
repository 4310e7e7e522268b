// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// Negotiation that names the element and the reason. When nothing upstream offers fits an
/// element, upstream fails on its own with a bare "not-negotiated" that never names the
/// element that refused: these move the failure to our element and say why, without
/// changing any negotiation that can succeed. The C vfuncs call them (rc_gst.h).
enum Negotiation {
    /// Answers a CAPS query with the offer itself when the offer cannot intersect
    /// `supported`: upstream then commits to caps, which accept-caps refuses with the reason.
    static func revealUnsupported(_ query: UnsafeMutablePointer<GstQuery>, _ supported: UnsafeMutablePointer<GstCaps>) -> Bool {
        var offer: UnsafeMutablePointer<GstCaps>?
        gst_query_parse_caps(query, &offer)
        guard let offer, gst_caps_is_empty(offer) == 0, gst_caps_is_any(offer) == 0,
              gst_caps_can_intersect(offer, supported) == 0 else { return false }
        gst_query_set_caps_result(query, offer)
        return true
    }

    /// Whether `caps` can intersect `supported`; if not, an error naming the element, the pad
    /// (when given) and each field that does not fit.
    static func acceptOrExplain(_ element: UnsafeMutablePointer<GstElement>, _ pad: UnsafeMutablePointer<GstPad>?,
                                _ caps: UnsafeMutablePointer<GstCaps>, _ supported: UnsafeMutablePointer<GstCaps>) -> Bool {
        if gst_caps_can_intersect(caps, supported) != 0 { return true }
        let factory = gst_element_get_factory(element).map { String(cString: rc_object_name(UnsafeMutableRawPointer($0))) }
        let name = factory ?? String(cString: g_type_name_from_instance(UnsafeMutablePointer(OpaquePointer(element))))
        let where_ = pad.map { " on its \(String(cString: rc_object_name($0))) pad" } ?? ""
        let text = "\(name) cannot accept this input\(where_): \(mismatch(caps, supported))"
        let debug = "\(String(cString: rc_object_name(element))) was offered \(describe(caps)); it supports \(describe(supported))"
        rc_element_error_core_negotiation(element, text, debug)
        return false
    }

    /// A sink pad's CAPS query (answered by `answer`, or the pad template filtered) and
    /// ACCEPT_CAPS query (the reason posted when it fails); false for any other query.
    static func sinkCapsQuery(_ element: UnsafeMutablePointer<GstElement>, _ pad: UnsafeMutablePointer<GstPad>,
                              _ query: UnsafeMutablePointer<GstQuery>, _ answer: RcCapsAnswer?) -> Bool {
        let type = rc_query_type(query)
        guard type == GST_QUERY_CAPS || type == GST_QUERY_ACCEPT_CAPS else { return false }
        let supported = gst_pad_get_pad_template_caps(pad)!
        defer { gst_caps_unref(supported) }
        if type == GST_QUERY_CAPS {
            if revealUnsupported(query, supported) { return true }
            var filter: UnsafeMutablePointer<GstCaps>?
            gst_query_parse_caps(query, &filter)
            let result = answer.map { $0(element, filter)! } ?? intersect(filter, supported)
            gst_query_set_caps_result(query, result)
            gst_caps_unref(result)
        } else {
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_query_parse_accept_caps(query, &caps)
            // A subset, as GstPad's default: caps that only intersect leave fields unfixed.
            let ok = acceptOrExplain(element, pad, caps!, supported) && gst_caps_is_subset(caps, supported) != 0
            gst_query_set_accept_caps_result(query, ok ? 1 : 0)
        }
        return true
    }

    /// filter ∩ supported, without building new caps where one side holds the other: since
    /// GStreamer 1.26 upstream asks again while streaming (rtmpreconnectsink's video pad gets
    /// a bare "video/x-h264" 4 times per 100 buffers on 1.26.2), and an intersection per
    /// query costs 6 heap allocations.
    private static func intersect(_ filter: UnsafeMutablePointer<GstCaps>?, _ supported: UnsafeMutablePointer<GstCaps>)
        -> UnsafeMutablePointer<GstCaps> {
        guard let filter, gst_caps_is_subset(supported, filter) == 0 else { return gst_caps_ref(supported) }
        if gst_caps_is_subset(filter, supported) != 0 { return gst_caps_ref(filter) }
        return gst_caps_intersect_full(filter, supported, GST_CAPS_INTERSECT_FIRST)
    }

    /// Why the first structure of `caps` fits none of `supported`: each field of the supported
    /// structure of the same media type that the offer's value misses, or the media type.
    private static func mismatch(_ caps: UnsafeMutablePointer<GstCaps>, _ supported: UnsafeMutablePointer<GstCaps>) -> String {
        if gst_caps_is_empty(caps) != 0 { return "no caps" }
        let offered = gst_caps_get_structure(caps, 0)!
        let media = gst_structure_get_name(offered)!
        let structures = (0..<gst_caps_get_size(supported)).map { gst_caps_get_structure(supported, $0)! }
        guard let allowed = structures.first(where: { gst_structure_has_name($0, media) != 0 }) else {
            let names = structures.map { String(cString: gst_structure_get_name($0)) }
            return "media type \(String(cString: media)) is not supported (supported: \(names.joined(separator: ", ")))"
        }
        var reasons: [String] = []
        for index in 0..<gst_structure_n_fields(allowed) {
            let field = gst_structure_nth_field_name(allowed, guint(index))!
            // gst_value_can_intersect answers true for any list: intersect exactly instead.
            guard let offeredValue = gst_structure_get_value(offered, field),
                  gst_value_intersect(nil, offeredValue, gst_structure_get_value(allowed, field)) == 0 else { continue }
            reasons.append("\(String(cString: field)) \(serialize(offeredValue)) is not supported "
                           + "(supported: \(serialize(gst_structure_get_value(allowed, field))))")
        }
        return reasons.isEmpty ? "no supported combination of these fields" : reasons.joined(separator: "; ")
    }

    private static func serialize(_ value: UnsafePointer<GValue>) -> String {
        guard let text = gst_value_serialize(value) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    private static func describe(_ caps: UnsafeMutablePointer<GstCaps>) -> String {
        let text = gst_caps_to_string(caps)!
        defer { g_free(text) }
        return String(cString: text)
    }
}

@_cdecl("rc_transform_query_answered")
func transformQueryAnswered(_ trans: UnsafeMutablePointer<GstBaseTransform>, _ direction: GstPadDirection,
                            _ query: UnsafeMutablePointer<GstQuery>) -> gboolean {
    guard direction == GST_PAD_SINK, rc_query_type(query) == GST_QUERY_CAPS else { return 0 }
    let supported = gst_pad_get_pad_template_caps(trans.pointee.sinkpad)!
    defer { gst_caps_unref(supported) }
    return Negotiation.revealUnsupported(query, supported) ? 1 : 0
}

@_cdecl("rc_transform_accepts")
func transformAccepts(_ trans: UnsafeMutablePointer<GstBaseTransform>, _ direction: GstPadDirection,
                      _ caps: UnsafeMutablePointer<GstCaps>) -> gboolean {
    guard direction == GST_PAD_SINK else { return 1 }
    let supported = gst_pad_get_pad_template_caps(trans.pointee.sinkpad)!
    defer { gst_caps_unref(supported) }
    return Negotiation.acceptOrExplain(rc_element(trans), nil, caps, supported) ? 1 : 0
}

@_cdecl("rc_sink_caps_query")
func sinkCapsQuery(_ element: UnsafeMutablePointer<GstElement>, _ pad: UnsafeMutablePointer<GstPad>,
                   _ query: UnsafeMutablePointer<GstQuery>, _ answer: RcCapsAnswer?) -> gboolean {
    Negotiation.sinkCapsQuery(element, pad, query, answer) ? 1 : 0
}
