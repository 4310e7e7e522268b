/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rtmpreconnectsink (RTMP and SRT): GType and pads. Connections, reconnection and what each buffer and
 * event means are decided in Swift (RtmpReconnectSink.swift), which also declares the
 * properties; every function here forwards to it or is GStreamer plumbing. */
#include "include/rc_rtmpreconnectsink.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
void *rc_rtmpreconnectsink_state_new(void);
/* READY -> PAUSED: checks the location and starts the connection thread; FALSE (after posting
 * an error) when the element cannot start. */
gboolean rc_rtmpreconnectsink_start(GstElement *self);
/* PAUSED -> READY, after the pads stopped: ends the connection and its thread. */
void rc_rtmpreconnectsink_stop(GstElement *self);
/* PAUSED -> PLAYING (TRUE) and PLAYING -> PAUSED (FALSE): a due EOS is posted in PLAYING. */
void rc_rtmpreconnectsink_set_playing(GstElement *self, gboolean playing);
/* Take ownership of the buffer or event. */
GstFlowReturn rc_rtmpreconnectsink_chain(RcRtmpReconnectSink *self, RcPublishStream stream, GstBuffer *buffer);
gboolean rc_rtmpreconnectsink_sink_event(RcRtmpReconnectSink *self, RcPublishStream stream, GstEvent *event);
/* A query from inside a connection's pipeline to the element's output pad. */
gboolean rc_rtmpreconnectsink_out_query(GstQuery *query);
/* Whether a pad for `stream` may be added now; a refusal is logged with its reason. */
gboolean rc_rtmpreconnectsink_may_add_pad(RcRtmpReconnectSink *self, RcPublishStream stream);
/* The request pad of `stream` is gone (its streaming stopped): `out` leaves the connection. */
void rc_rtmpreconnectsink_release(RcRtmpReconnectSink *self, RcPublishStream stream, GstPad *out);

#define RC_PUBLISH_VIDEO_CAPS "video/x-h264, stream-format = (string) avc, alignment = (string) au"
#define RC_PUBLISH_AUDIO_CAPS "audio/mpeg, mpegversion = (int) 4, stream-format = (string) raw, framed = (boolean) true"

static GstStaticPadTemplate templates[RC_PUBLISH_STREAM_COUNT] = {
  GST_STATIC_PAD_TEMPLATE("video", GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS(RC_PUBLISH_VIDEO_CAPS)),
  GST_STATIC_PAD_TEMPLATE("audio", GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS(RC_PUBLISH_AUDIO_CAPS)),
};

RC_DEFINE_TYPE(GstRtmpReconnectSink, RcRtmpReconnectSink, rc_rtmpreconnectsink, GST_TYPE_ELEMENT,
    rc_rtmpreconnectsink_state_new(), rc_no_interfaces)
GST_ELEMENT_REGISTER_DEFINE(rtmpreconnectsink, "rtmpreconnectsink", GST_RANK_NONE, rc_rtmpreconnectsink_get_type())

static RcPublishStream stream_of(GstPad *pad) { return (RcPublishStream)GPOINTER_TO_INT(gst_pad_get_element_private(pad)); }

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  return rc_rtmpreconnectsink_chain((RcRtmpReconnectSink *)parent, stream_of(pad), buffer);
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  return rc_rtmpreconnectsink_sink_event((RcRtmpReconnectSink *)parent, stream_of(pad), event);
}

static gboolean sink_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  return rc_sink_caps_query(GST_ELEMENT(parent), pad, query, NULL) || gst_pad_query_default(pad, parent, query);
}

static gboolean out_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  return rc_rtmpreconnectsink_out_query(query);
}

static GstPad *request_new_pad(GstElement *element, GstPadTemplate *templ, const gchar *name, const GstCaps *caps) {
  RcRtmpReconnectSink *self = (RcRtmpReconnectSink *)element;
  RcPublishStream stream = g_strcmp0(templ->name_template, "video") == 0 ? RC_PUBLISH_VIDEO : RC_PUBLISH_AUDIO;
  if (!rc_rtmpreconnectsink_may_add_pad(self, stream))
    return NULL;
  GstPad *pad = gst_pad_new_from_template(templ, templ->name_template);
  gst_pad_set_element_private(pad, GINT_TO_POINTER(stream));
  gst_pad_set_chain_function(pad, chain);
  gst_pad_set_event_function(pad, sink_event);
  gst_pad_set_query_function(pad, sink_query);
  GST_PAD_SET_PROXY_ALLOCATION(pad);
  GstPad *out = gst_pad_new(stream == RC_PUBLISH_VIDEO ? "video_out" : "audio_out", GST_PAD_SRC);
  gst_pad_set_query_function(out, out_query);
  GST_OBJECT_LOCK(self);
  self->sinkpads[stream] = pad;
  self->outpads[stream] = out;
  GST_OBJECT_UNLOCK(self);
  gst_element_add_pad(element, pad);
  return pad;
}

static void release_pad(GstElement *element, GstPad *pad) {
  RcRtmpReconnectSink *self = (RcRtmpReconnectSink *)element;
  RcPublishStream stream = stream_of(pad);
  gst_element_remove_pad(element, pad);
  GST_OBJECT_LOCK(self);
  GstPad *out = self->outpads[stream];
  self->sinkpads[stream] = NULL;
  self->outpads[stream] = NULL;
  GST_OBJECT_UNLOCK(self);
  rc_rtmpreconnectsink_release(self, stream, out);
  gst_object_unref(out);
}

/* A network sink does not preroll: nothing it holds decides when the pipeline can play. */
static const RcLifecycle lifecycle = {
  NULL, rc_rtmpreconnectsink_start, rc_rtmpreconnectsink_stop, rc_rtmpreconnectsink_set_playing, NULL,
};

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  return rc_lifecycle_change_state(element, transition, GST_ELEMENT_CLASS(rc_rtmpreconnectsink_parent_class),
      &lifecycle);
}

static void rc_rtmpreconnectsink_class_setup(RcRtmpReconnectSinkClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);

  element_class->change_state = change_state;
  element_class->request_new_pad = request_new_pad;
  element_class->release_pad = release_pad;
  for (int k = 0; k < RC_PUBLISH_STREAM_COUNT; k++)
    gst_element_class_add_static_pad_template(element_class, &templates[k]);
  gst_element_class_set_static_metadata(element_class, "RTMP and SRT sink that reconnects", "Sink/Network",
      "Publishes H.264 and AAC to an RTMP server as FLV (flvmux and rtmp2sink inside) or to an SRT listener "
      "as MPEG-TS (mpegtsmux and srtsink inside) and, when the connection fails or the server goes away, "
      "reconnects with backoff instead of failing the pipeline",
      "ReplayCast developers");
}

static void rc_rtmpreconnectsink_instance_setup(RcRtmpReconnectSink *self) {
  GST_OBJECT_FLAG_SET(self, GST_ELEMENT_FLAG_SINK);
}
