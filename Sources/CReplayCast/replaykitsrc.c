/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* replaykitsrc: GType, action signals, pads, state changes and the three stream tasks.
 * What each stream produces, and when, is decided in Swift (ReplayKitSource.swift), how its
 * tasks wait in StreamWaits.swift; its properties are declared in ReplayKitSourceProperties.swift. */
#include "include/rc_replaykitsrc.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
void *rc_replaykitsrc_state_new(RcReplayKitSrc *self);
/* NULL -> READY: FALSE, after posting the reason, while a refused string value stands. */
gboolean rc_replaykitsrc_open(GstElement *self);
/* READY -> PAUSED: builds the broadcast from the settings; posts an error and returns FALSE if it cannot. */
gboolean rc_replaykitsrc_start(GstElement *self);
gboolean rc_replaykitsrc_is_live(GstElement *self);
/* PAUSED -> READY, after the tasks stopped: drops what start built. */
void rc_replaykitsrc_stop(GstElement *self);
/* Pads deactivating (TRUE) or activating; PAUSED -> PLAYING (TRUE) and back: both end waits. */
void rc_replaykitsrc_set_flushing(RcReplayKitSrc *self, gboolean flushing);
void rc_replaykitsrc_set_playing(GstElement *self, gboolean playing);
/* One iteration of a stream's task; FALSE pauses the task (EOS, flushing, error). */
gboolean rc_replaykitsrc_stream_step(RcReplayKitSrc *self, RcStreamKind kind);
gboolean rc_replaykitsrc_query(RcReplayKitSrc *self, RcStreamKind kind, GstQuery *query);
/* An upstream event on `pad` (taken). */
gboolean rc_replaykitsrc_src_event(RcReplayKitSrc *self, GstPad *pad, GstEvent *event);
void rc_replaykitsrc_action(RcReplayKitSrc *self, RcBroadcastAction action);
gboolean rc_replaykitsrc_event(RcReplayKitSrc *self, const gchar *action);

#define VIDEO_CAPS "video/x-raw, format = (string) NV12, width = (int) [ 16, 4096 ], height = (int) [ 16, 4096 ], " \
  "framerate = (fraction) 0/1, max-framerate = (fraction) [ 1/1, 30/1 ], colorimetry = (string) 1:3:5:1, " \
  "interlace-mode = (string) progressive"
#define APP_CAPS "audio/x-raw, format = (string) { S16LE, S16BE }, layout = (string) interleaved, " \
  "rate = (int) [ 8000, 96000 ], channels = (int) [ 1, 2 ]"
#define MIC_CAPS "audio/x-raw, format = (string) S16LE, layout = (string) interleaved, " \
  "rate = (int) [ 8000, 96000 ], channels = (int) [ 1, 3 ]"

static GstStaticPadTemplate templates[RC_STREAM_COUNT] = {
  GST_STATIC_PAD_TEMPLATE("video", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(VIDEO_CAPS)),
  GST_STATIC_PAD_TEMPLATE("audio_app", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(APP_CAPS)),
  GST_STATIC_PAD_TEMPLATE("audio_mic", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(MIC_CAPS)),
};

enum { SIGNAL_PAUSE, SIGNAL_RESUME, SIGNAL_FINISH, SIGNAL_EVENT, SIGNAL_COUNT };
static guint signals[SIGNAL_COUNT];

RC_DEFINE_TYPE(GstReplayKitSrc, RcReplayKitSrc, rc_replaykitsrc, GST_TYPE_ELEMENT, rc_replaykitsrc_state_new(self),
    rc_no_interfaces)
GST_ELEMENT_REGISTER_DEFINE(replaykitsrc, "replaykitsrc", GST_RANK_NONE, rc_replaykitsrc_get_type())

GstEvent *rc_image_orientation_tag_event(const gchar *orientation) {
  GstTagList *tags = gst_tag_list_new(GST_TAG_IMAGE_ORIENTATION, orientation, NULL);
  return gst_event_new_tag(tags);
}

static void stream_loop(gpointer pad) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)GST_PAD_PARENT(pad);
  RcStreamKind kind = GPOINTER_TO_INT(gst_pad_get_element_private(pad));
  if (!rc_replaykitsrc_stream_step(self, kind))
    gst_pad_pause_task(pad);
}

static gboolean activate_mode(GstPad *pad, GstObject *parent, GstPadMode mode, gboolean active) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)parent;
  if (mode != GST_PAD_MODE_PUSH)
    return FALSE;
  if (active) {
    rc_replaykitsrc_set_flushing(self, FALSE);
    return gst_pad_start_task(pad, stream_loop, pad, NULL);
  }
  rc_replaykitsrc_set_flushing(self, TRUE);
  return gst_pad_stop_task(pad);
}

static gboolean src_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)parent;
  RcStreamKind kind = GPOINTER_TO_INT(gst_pad_get_element_private(pad));
  if (rc_replaykitsrc_query(self, kind, query))
    return TRUE;
  return gst_pad_query_default(pad, parent, query);
}

static gboolean src_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  return rc_replaykitsrc_src_event((RcReplayKitSrc *)parent, pad, event);
}

static const RcLifecycle lifecycle = {
  rc_replaykitsrc_open, rc_replaykitsrc_start, rc_replaykitsrc_stop, rc_replaykitsrc_set_playing, rc_replaykitsrc_is_live,
};

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  return rc_lifecycle_change_state(element, transition, GST_ELEMENT_CLASS(rc_replaykitsrc_parent_class), &lifecycle);
}

/* An application ending the pipeline sends EOS to it; a source with several pads would
 * otherwise get it on one pad only. EOS finishes the broadcast: every pad ends. */
static gboolean send_event(GstElement *element, GstEvent *event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    rc_replaykitsrc_action((RcReplayKitSrc *)element, RC_ACTION_FINISH);
    gst_event_unref(event);
    return TRUE;
  }
  return GST_ELEMENT_CLASS(rc_replaykitsrc_parent_class)->send_event(element, event);
}

static void action_pause(RcReplayKitSrc *self) { rc_replaykitsrc_action(self, RC_ACTION_PAUSE); }
static void action_resume(RcReplayKitSrc *self) { rc_replaykitsrc_action(self, RC_ACTION_RESUME); }
static void action_finish(RcReplayKitSrc *self) { rc_replaykitsrc_action(self, RC_ACTION_FINISH); }
static gboolean action_event(RcReplayKitSrc *self, const gchar *action) {
  return action != NULL && rc_replaykitsrc_event(self, action);
}

static void rc_replaykitsrc_class_setup(RcReplayKitSrcClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);

  element_class->change_state = change_state;
  element_class->send_event = send_event;

  signals[SIGNAL_PAUSE] = g_signal_new_class_handler("pause", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_pause), NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_RESUME] = g_signal_new_class_handler("resume", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_resume), NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_FINISH] = g_signal_new_class_handler("finish", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_finish), NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_EVENT] = g_signal_new_class_handler("event", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_event), NULL, NULL, NULL, G_TYPE_BOOLEAN, 1, G_TYPE_STRING);

  for (int k = 0; k < RC_STREAM_COUNT; k++)
    gst_element_class_add_static_pad_template(element_class, &templates[k]);
  gst_element_class_set_static_metadata(element_class, "ReplayKit broadcast source", "Source/Video/Audio",
      "Emulates an iOS ReplayKit broadcast upload extension: NV12 full-range screen video, app and mic audio "
      "as devices deliver them, and the broadcast lifecycle",
      "ReplayCast developers");
}

static void rc_replaykitsrc_instance_setup(RcReplayKitSrc *self) {
  for (int k = 0; k < RC_STREAM_COUNT; k++) {
    GstPad *pad = gst_pad_new_from_static_template(&templates[k], templates[k].name_template);
    gst_pad_set_element_private(pad, GINT_TO_POINTER(k));
    gst_pad_set_activatemode_function(pad, activate_mode);
    gst_pad_set_query_function(pad, src_query);
    gst_pad_set_event_function(pad, src_event);
    gst_pad_use_fixed_caps(pad);
    gst_element_add_pad(GST_ELEMENT(self), pad);
    self->pads[k] = pad;
  }
  GST_OBJECT_FLAG_SET(self, GST_ELEMENT_FLAG_SOURCE);
}
