/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* llhlssink: GType and pads. Parts, segments and playlists are decided in Swift
 * (LLHLSSink.swift), which also declares the properties; every function here forwards to it
 * or is GStreamer plumbing. */
#include "include/rc_llhlssink.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
void *rc_llhlssink_state_new(void);
/* READY -> PAUSED: makes the folder; FALSE (after posting an error) when it cannot start. */
gboolean rc_llhlssink_start(GstElement *self);
/* PAUSED -> READY, after the pads stopped: ends the playlists still open. */
void rc_llhlssink_stop(GstElement *self);
/* PAUSED -> PLAYING (TRUE) and PLAYING -> PAUSED (FALSE): a due EOS is posted in PLAYING. */
void rc_llhlssink_set_playing(GstElement *self, gboolean playing);
/* A new request pad's rendition (retained, the pad's element private) or NULL, logged, when
 * no pad of the template may be added now. */
void *rc_llhlssink_rendition_new(RcLLHLSSink *self, GstPad *pad, gboolean video);
void rc_llhlssink_rendition_release(RcLLHLSSink *self, void *rendition);
/* Take ownership of the buffer or event. */
GstFlowReturn rc_llhlssink_chain(RcLLHLSSink *self, void *rendition, GstBuffer *buffer);
gboolean rc_llhlssink_sink_event(RcLLHLSSink *self, void *rendition, GstEvent *event);

#define RC_LLHLS_VIDEO_CAPS "video/x-h264, stream-format = (string) avc, alignment = (string) au"
#define RC_LLHLS_AUDIO_CAPS "audio/mpeg, mpegversion = (int) 4, stream-format = (string) raw, framed = (boolean) true"

static GstStaticPadTemplate video_template =
    GST_STATIC_PAD_TEMPLATE("video_%u", GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS(RC_LLHLS_VIDEO_CAPS));
static GstStaticPadTemplate audio_template =
    GST_STATIC_PAD_TEMPLATE("audio", GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS(RC_LLHLS_AUDIO_CAPS));

RC_DEFINE_TYPE(GstLLHLSSink, RcLLHLSSink, rc_llhlssink, GST_TYPE_ELEMENT, rc_llhlssink_state_new(), rc_no_interfaces)
GST_ELEMENT_REGISTER_DEFINE(llhlssink, "llhlssink", GST_RANK_NONE, rc_llhlssink_get_type())

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  return rc_llhlssink_chain((RcLLHLSSink *)parent, gst_pad_get_element_private(pad), buffer);
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  return rc_llhlssink_sink_event((RcLLHLSSink *)parent, gst_pad_get_element_private(pad), event);
}

static gboolean sink_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  return rc_sink_caps_query(GST_ELEMENT(parent), pad, query, NULL) || gst_pad_query_default(pad, parent, query);
}

static GstPad *request_new_pad(GstElement *element, GstPadTemplate *templ, const gchar *name, const GstCaps *caps) {
  RcLLHLSSink *self = (RcLLHLSSink *)element;
  gboolean video = g_str_has_prefix(templ->name_template, "video");
  gchar *chosen = NULL;
  if (name) {
    GstPad *taken = gst_element_get_static_pad(element, name);
    if (taken) {
      gst_object_unref(taken);
      return NULL;
    }
    chosen = g_strdup(name);
  }
  /* Else the lowest free index, as GStreamer's aggregators name their pads. */
  for (guint k = 0; video && !chosen; k++) {
    gchar *candidate = g_strdup_printf("video_%u", k);
    GstPad *taken = gst_element_get_static_pad(element, candidate);
    if (taken) {
      gst_object_unref(taken);
      g_free(candidate);
    } else {
      chosen = candidate;
    }
  }
  GstPad *pad = gst_pad_new_from_template(templ, chosen ? chosen : "audio");
  g_free(chosen);
  void *rendition = rc_llhlssink_rendition_new(self, pad, video);
  if (!rendition) {
    gst_object_unref(gst_object_ref_sink(pad));
    return NULL;
  }
  gst_pad_set_element_private(pad, rendition);
  gst_pad_set_chain_function(pad, chain);
  gst_pad_set_event_function(pad, sink_event);
  gst_pad_set_query_function(pad, sink_query);
  gst_element_add_pad(element, pad);
  return pad;
}

static void release_pad(GstElement *element, GstPad *pad) {
  void *rendition = gst_pad_get_element_private(pad);
  gst_pad_set_element_private(pad, NULL);
  gst_element_remove_pad(element, pad);
  rc_llhlssink_rendition_release((RcLLHLSSink *)element, rendition);
}

/* A file sink that does not preroll: it writes what reaches it as it comes. */
static const RcLifecycle lifecycle = {
  NULL, rc_llhlssink_start, rc_llhlssink_stop, rc_llhlssink_set_playing, NULL,
};

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  return rc_lifecycle_change_state(element, transition, GST_ELEMENT_CLASS(rc_llhlssink_parent_class), &lifecycle);
}

static void rc_llhlssink_class_setup(RcLLHLSSinkClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);

  element_class->change_state = change_state;
  element_class->request_new_pad = request_new_pad;
  element_class->release_pad = release_pad;
  gst_element_class_add_static_pad_template(element_class, &video_template);
  gst_element_class_add_static_pad_template(element_class, &audio_template);
  gst_element_class_set_static_metadata(element_class, "Low-Latency HLS sink", "Sink/File",
      "Writes H.264 renditions and AAC audio as CMAF Low-Latency HLS: parts, segments, an init segment and a "
      "media playlist per rendition with preload hints, rendition reports and delta updates, and the "
      "multivariant playlist of the ladder",
      "ReplayCast developers");
}

static void rc_llhlssink_instance_setup(RcLLHLSSink *self) {
  GST_OBJECT_FLAG_SET(self, GST_ELEMENT_FLAG_SINK);
}
