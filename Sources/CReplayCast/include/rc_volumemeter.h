#ifndef RC_VOLUMEMETER_H
#define RC_VOLUMEMETER_H

#include "rc_gst.h"
#include "rc_properties.h"

/* Property values; the copy in the instance is guarded by the object lock, the streaming
 * thread works on a snapshot taken with rc_volumemeter_copy_settings. */
typedef struct {
  guint64 interval;       /* ns between messages */
  gboolean post_messages;
  guint64 peak_ttl;       /* ns a decay peak holds before falling */
  gdouble peak_falloff;   /* dB/s, with level's meaning */
  gboolean loudness;      /* EBU R128 measurement on/off */
  guint loudness_resets;  /* not a property: counts `reset` action signals */
} RcVolumeMeterSettings;

typedef struct {
  GstBaseTransform parent;
  RcVolumeMeterSettings settings;
  void *state; /* Swift VolumeMeter, retained; lives from instance init to finalize */
} RcVolumeMeter;

typedef struct {
  GstBaseTransformClass parent_class;
} RcVolumeMeterClass;

GType rc_volumemeter_get_type(void);
void rc_volumemeter_copy_settings(RcVolumeMeter *self, RcVolumeMeterSettings *out);

#endif
