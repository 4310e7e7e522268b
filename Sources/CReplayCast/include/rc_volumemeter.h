/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_VOLUMEMETER_H
#define RC_VOLUMEMETER_H

#include "rc_element.h"

/* Property values (VolumeMeterProperties.swift declares them); the copy in the instance is
 * guarded by the object lock, the streaming thread works on a snapshot. */
typedef struct {
  guint64 interval;       /* ns between messages */
  gboolean post_messages;  /* also the deprecated `message` property, as in level */
  gboolean audio_level_meta; /* GstAudioLevelMeta on every buffer; buffers are then writable */
  guint64 peak_ttl;       /* ns a decay peak holds before falling */
  gdouble peak_falloff;   /* dB/s, with level's meaning */
  gboolean loudness;      /* EBU R128 measurement on/off */
  guint loudness_resets;  /* not a property: counts `reset` action signals */
} RcVolumeMeterSettings;

typedef struct {
  GstBaseTransform parent;
  RcVolumeMeterSettings settings;
  gint settings_writes; /* property writes and `reset` signals so far (atomic) */
  void *state; /* Swift VolumeMeter, retained; lives from instance init to finalize */
} RcVolumeMeter;

RC_CLASS_STRUCT(RcVolumeMeter, GstBaseTransformClass);

GType rc_volumemeter_get_type(void);

/* What rc_volumemeter_write_audio_level did to a buffer. */
typedef enum {
  RC_AUDIO_LEVEL_META_ADDED,     /* a new meta: no voice activity, as level writes it */
  RC_AUDIO_LEVEL_META_UPDATED,   /* upstream's meta: its level replaced, its voice activity kept */
  RC_AUDIO_LEVEL_META_READ_ONLY, /* a shared buffer (the property was turned on while it was under way): untouched */
} RcAudioLevelMetaWrite;

RcAudioLevelMetaWrite rc_volumemeter_write_audio_level(GstBuffer *buffer, guint8 level);

/* Changes whenever the settings may have: the streaming thread copies them only then. */
static inline gint rc_volumemeter_settings_writes(RcVolumeMeter *self) {
  return g_atomic_int_get(&self->settings_writes);
}

#endif
