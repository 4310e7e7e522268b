/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* volumemeter: GType and pads. Measuring happens in Swift (VolumeMeter.swift), its
 * properties are declared there (VolumeMeterProperties.swift); every vfunc here forwards to it. */
#include "include/rc_volumemeter.h"

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

RC_DEFINE_TYPE(GstVolumeMeter, RcVolumeMeter, rc_volumemeter, GST_TYPE_BASE_TRANSFORM, rc_volumemeter_state_new(),
    rc_no_interfaces)
GST_ELEMENT_REGISTER_DEFINE(volumemeter, "volumemeter", GST_RANK_NONE, rc_volumemeter_get_type())

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
  rc_transform_negotiation(trans_class);
}

static void rc_volumemeter_instance_setup(RcVolumeMeter *self) {
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_gap_aware(GST_BASE_TRANSFORM(self), TRUE);
}
