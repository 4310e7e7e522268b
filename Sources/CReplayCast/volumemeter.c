/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* volumemeter: GType, properties and pads. Measuring happens in Swift (VolumeMeter.swift);
 * every vfunc here forwards to it. */
#include "include/rc_volumemeter.h"
#include "include/rc_debug.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
void *rc_volumemeter_state_new(void);
gboolean rc_volumemeter_start(GstBaseTransform *self);
gboolean rc_volumemeter_stop(GstBaseTransform *self);
gboolean rc_volumemeter_set_caps(GstBaseTransform *self, GstCaps *incaps, GstCaps *outcaps);
GstFlowReturn rc_volumemeter_transform_ip(GstBaseTransform *self, GstBuffer *buffer);
/* Called before the event is forwarded; EOS posts the last partial interval. */
void rc_volumemeter_sink_event(RcVolumeMeter *self, GstEvent *event);

#define RC_VOLUMEMETER_CAPS \
  "audio/x-raw, format = (string) { S8, S16LE, S16BE, S32LE, F32LE, F64LE }, " \
  "layout = (string) interleaved, rate = (int) [ 1, MAX ], channels = (int) [ 1, MAX ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(RC_VOLUMEMETER_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(RC_VOLUMEMETER_CAPS));

#define MUTABLE GST_PARAM_MUTABLE_PLAYING
static const RcProperty properties[] = {
  RC_UINT64(RcVolumeMeterSettings, interval, "interval", "Interval",
      "Interval of time between message posts (in nanoseconds)", 1, G_MAXUINT64, GST_SECOND / 10, MUTABLE),
  RC_BOOLEAN(RcVolumeMeterSettings, post_messages, "post-messages", "Post Messages",
      "Whether to post a 'volumemeter' element message on the bus for each passed interval", TRUE, MUTABLE),
  RC_UINT64(RcVolumeMeterSettings, peak_ttl, "peak-ttl", "Peak TTL",
      "Time To Live of decay peak before it falls back (in nanoseconds)", 0, G_MAXUINT64, GST_SECOND / 10 * 3, MUTABLE),
  RC_DOUBLE(RcVolumeMeterSettings, peak_falloff, "peak-falloff", "Peak Falloff",
      "Decay rate of decay peak after TTL (in dB/sec, with level's meaning)", 0.0, G_MAXDOUBLE, 10.0, MUTABLE),
  RC_BOOLEAN(RcVolumeMeterSettings, loudness, "loudness", "Loudness",
      "Also measure EBU R128 loudness (momentary, short-term, integrated in LUFS) and true peak (dBTP)", FALSE, MUTABLE),
  RC_BOOLEAN(RcVolumeMeterSettings, audio_level_meta, "audio-level-meta", "Audio Level Meta",
      "Give every buffer a GstAudioLevelMeta with its RFC 6464 level (-dBov, 0-127), updating one set upstream; "
      "buffers are then made writable", FALSE, MUTABLE),
  /* level's older name for post-messages, kept as level keeps it: the same value, deprecated. */
  RC_BOOLEAN(RcVolumeMeterSettings, post_messages, "message", "message",
      "Post a 'volumemeter' message for each passed interval (deprecated: post-messages is the same switch)", TRUE,
      MUTABLE | G_PARAM_DEPRECATED),
};

RC_DEFINE_TYPE(GstVolumeMeter, RcVolumeMeter, rc_volumemeter, GST_TYPE_BASE_TRANSFORM, properties,
    rc_volumemeter_state_new(), rc_no_interfaces)
RC_SETTINGS_COPY(rc_volumemeter, RcVolumeMeter, properties)
GST_ELEMENT_REGISTER_DEFINE(volumemeter, "volumemeter", GST_RANK_NONE, rc_volumemeter_get_type())

/* As level: with audio-level-meta the buffers must be writable, so the base class stops
 * passing them through untouched (it copies a shared one) and does so again without it. */
static void rc_volumemeter_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  RcVolumeMeter *self = (RcVolumeMeter *)object;
  if (!rc_properties_set(self, &self->settings, properties, G_N_ELEMENTS(properties), id, value)) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  if (properties[id - 1].offset == G_STRUCT_OFFSET(RcVolumeMeterSettings, audio_level_meta)) {
    gboolean meta = g_value_get_boolean(value);
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), !meta);
    rc_debug_log(RC_LOG_VOLUMEMETER, GST_LEVEL_DEBUG, self, __FILE__, G_STRFUNC, __LINE__,
        meta ? "audio-level-meta on: buffers are made writable (a shared one is copied) to carry the meta"
             : "audio-level-meta off: buffers pass through untouched");
  }
  g_atomic_int_inc(&self->settings_writes);
}

RC_PROPERTY_GETTER(rc_volumemeter_, RcVolumeMeter, settings, properties)

RcAudioLevelMetaWrite rc_volumemeter_write_audio_level(GstBuffer *buffer, guint8 level) {
  if (!gst_buffer_is_writable(buffer))
    return RC_AUDIO_LEVEL_META_READ_ONLY;
  GstAudioLevelMeta *meta = gst_buffer_get_audio_level_meta(buffer);
  if (meta) {
    meta->level = level;
    return RC_AUDIO_LEVEL_META_UPDATED;
  }
  gst_buffer_add_audio_level_meta(buffer, level, FALSE);
  return RC_AUDIO_LEVEL_META_ADDED;
}

/* The streaming thread sees the new count with its next settings copy and resets then, so
 * the meter is never touched from the application's thread. */
static void action_reset(RcVolumeMeter *self) {
  GST_OBJECT_LOCK(self);
  self->settings.loudness_resets++;
  GST_OBJECT_UNLOCK(self);
  g_atomic_int_inc(&self->settings_writes);
}

static gboolean sink_event(GstBaseTransform *trans, GstEvent *event) {
  rc_volumemeter_sink_event((RcVolumeMeter *)trans, event);
  return GST_BASE_TRANSFORM_CLASS(rc_volumemeter_parent_class)->sink_event(trans, event);
}

static gboolean query(GstBaseTransform *trans, GstPadDirection direction, GstQuery *q) {
  return rc_transform_query_answered(trans, direction, q)
      || GST_BASE_TRANSFORM_CLASS(rc_volumemeter_parent_class)->query(trans, direction, q);
}

static gboolean accept_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps) {
  return rc_transform_accepts(trans, direction, caps)
      && GST_BASE_TRANSFORM_CLASS(rc_volumemeter_parent_class)->accept_caps(trans, direction, caps);
}

static void rc_volumemeter_class_setup(RcVolumeMeterClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);

  g_signal_new_class_handler("reset", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK(action_reset), NULL, NULL, NULL, G_TYPE_NONE, 0);
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(element_class, "Volume meter", "Filter/Analyzer/Audio",
      "RMS, peak and decaying peak levels like level, app-style volume and EBU R128 loudness, "
      "posted as bus messages; audio passes through untouched",
      "ReplayCast developers");

  trans_class->start = rc_volumemeter_start;
  trans_class->stop = rc_volumemeter_stop;
  trans_class->set_caps = rc_volumemeter_set_caps;
  trans_class->transform_ip = rc_volumemeter_transform_ip;
  trans_class->sink_event = sink_event;
  trans_class->query = query;
  trans_class->accept_caps = accept_caps;
}

static void rc_volumemeter_instance_setup(RcVolumeMeter *self) {
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_gap_aware(GST_BASE_TRANSFORM(self), TRUE);
}
