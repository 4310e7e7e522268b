/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* When nothing upstream offers fits an element, upstream fails on its own with a bare
 * "not-negotiated" that never names the element that refused. These helpers move the
 * failure to our element and say why, without changing any negotiation that can succeed. */
#include "include/rc_gst.h"

gboolean rc_caps_query_reveal_unsupported(GstQuery *query, GstCaps *supported) {
  GstCaps *offer = NULL;
  gst_query_parse_caps(query, &offer);
  if (offer == NULL || gst_caps_is_empty(offer) || gst_caps_is_any(offer))
    return FALSE;
  if (gst_caps_can_intersect(offer, supported))
    return FALSE;
  /* The offer cannot succeed with us anyway. Answering with it lets upstream commit to
   * caps, which our accept-caps check then rejects with the reason. */
  gst_query_set_caps_result(query, offer);
  return TRUE;
}

typedef struct {
  const GstStructure *offered;
  GString *why;
} MismatchSearch;

static gboolean append_field_mismatch(GQuark field, const GValue *allowed, gpointer data) {
  MismatchSearch *search = data;
  const GValue *offered = gst_structure_id_get_value(search->offered, field);
  /* gst_value_can_intersect answers TRUE for any list; intersect exactly instead. */
  if (offered == NULL || gst_value_intersect(NULL, offered, allowed))
    return TRUE;
  gchar *offered_text = gst_value_serialize(offered);
  gchar *allowed_text = gst_value_serialize(allowed);
  g_string_append_printf(search->why, "%s%s %s is not supported (supported: %s)",
      search->why->len ? "; " : "", g_quark_to_string(field), offered_text, allowed_text);
  g_free(offered_text);
  g_free(allowed_text);
  return TRUE;
}

static gchar *describe_mismatch(GstCaps *caps, GstCaps *supported) {
  GString *why = g_string_new(NULL);
  if (gst_caps_is_empty(caps)) {
    g_string_append(why, "no caps");
    return g_string_free(why, FALSE);
  }
  const GstStructure *offered = gst_caps_get_structure(caps, 0);
  gboolean same_media = FALSE;
  for (guint i = 0; i < gst_caps_get_size(supported); i++) {
    const GstStructure *allowed = gst_caps_get_structure(supported, i);
    if (!gst_structure_has_name(allowed, gst_structure_get_name(offered)))
      continue;
    same_media = TRUE;
    MismatchSearch search = { offered, why };
    gst_structure_foreach(allowed, append_field_mismatch, &search);
    break;
  }
  if (!same_media) {
    g_string_append_printf(why, "media type %s is not supported (supported: ", gst_structure_get_name(offered));
    for (guint i = 0; i < gst_caps_get_size(supported); i++)
      g_string_append_printf(why, "%s%s", i ? ", " : "", gst_structure_get_name(gst_caps_get_structure(supported, i)));
    g_string_append(why, ")");
  }
  if (why->len == 0)
    g_string_append(why, "no supported combination of these fields");
  return g_string_free(why, FALSE);
}

gboolean rc_accept_caps_or_explain(GstElement *element, GstPad *pad, GstCaps *caps, GstCaps *supported) {
  if (gst_caps_can_intersect(caps, supported))
    return TRUE;
  GstElementFactory *factory = gst_element_get_factory(element);
  const gchar *factory_name = factory ? GST_OBJECT_NAME(factory) : G_OBJECT_TYPE_NAME(element);
  gchar *why = describe_mismatch(caps, supported);
  gchar *offered = gst_caps_to_string(caps);
  gchar *where = pad ? g_strdup_printf(" on its %s pad", GST_PAD_NAME(pad)) : g_strdup("");
  GST_ELEMENT_ERROR(element, CORE, NEGOTIATION,
      ("%s cannot accept this input%s: %s", factory_name, where, why),
      ("%s was offered %s; it supports %" GST_PTR_FORMAT, GST_ELEMENT_NAME(element), offered, supported));
  g_free(where);
  g_free(offered);
  g_free(why);
  return FALSE;
}

/* filter ∩ supported, without building new caps where one side holds the other: since
 * GStreamer 1.26 upstream asks again while streaming (rtmpreconnectsink's video pad gets a
 * bare "video/x-h264" 4 times per 100 buffers on 1.26.2), and an intersection per query
 * was 6 heap allocations each time. */
static GstCaps *intersect(GstCaps *filter, GstCaps *supported) {
  if (filter == NULL || gst_caps_is_subset(supported, filter))
    return gst_caps_ref(supported);
  if (gst_caps_is_subset(filter, supported))
    return gst_caps_ref(filter);
  return gst_caps_intersect_full(filter, supported, GST_CAPS_INTERSECT_FIRST);
}

static void answer_caps(GstElement *element, GstQuery *query, GstCaps *supported, RcCapsAnswer answer) {
  if (rc_caps_query_reveal_unsupported(query, supported))
    return;
  GstCaps *filter = NULL;
  gst_query_parse_caps(query, &filter);
  GstCaps *result = answer ? answer(element, filter) : intersect(filter, supported);
  gst_query_set_caps_result(query, result);
  gst_caps_unref(result);
}

gboolean rc_sink_caps_query(GstElement *element, GstPad *pad, GstQuery *query, RcCapsAnswer answer) {
  if (GST_QUERY_TYPE(query) != GST_QUERY_CAPS && GST_QUERY_TYPE(query) != GST_QUERY_ACCEPT_CAPS)
    return FALSE;
  GstCaps *supported = gst_pad_get_pad_template_caps(pad);
  if (GST_QUERY_TYPE(query) == GST_QUERY_CAPS) {
    answer_caps(element, query, supported, answer);
  } else {
    GstCaps *caps = NULL;
    gst_query_parse_accept_caps(query, &caps);
    /* a subset, as GstPad's default: caps that only intersect leave fields unfixed */
    gboolean ok = rc_accept_caps_or_explain(element, pad, caps, supported) && gst_caps_is_subset(caps, supported);
    gst_query_set_accept_caps_result(query, ok);
  }
  gst_caps_unref(supported);
  return TRUE;
}
