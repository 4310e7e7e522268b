#ifndef RC_DUALMIXER_H
#define RC_DUALMIXER_H

#include "rc_gst.h"

typedef enum {
  RC_MIX_SUM = 0,
  RC_MIX_AVERAGE = 1,
} RcMixMode;

#define RC_DUALMIXER_DEFAULT_OUTPUT_DURATION (10 * GST_MSECOND)
#define RC_DUALMIXER_DEFAULT_LEVEL_INTERVAL (100 * GST_MSECOND)

/* Element properties; guarded by the object lock, copied once per output buffer. */
typedef struct {
  RcMixMode mix_mode;
  gboolean post_levels;
  guint64 output_buffer_duration;
  guint64 level_interval;
} RcDualMixerSettings;

/* Pad properties, likewise. */
typedef struct {
  gdouble volume;
  gboolean mute;
} RcDualMixerPadSettings;

typedef struct {
  GstAggregatorPad parent;
  RcDualMixerPadSettings settings;
  gint index; /* 0 app, 1 mic */
} RcDualMixerPad;

typedef struct {
  GstAggregatorPadClass parent_class;
} RcDualMixerPadClass;

typedef struct {
  GstAggregator parent;
  RcDualMixerSettings settings;
  RcDualMixerPad *pads[2];
  void *state; /* Swift DualMixer, retained; instance init to finalize */
} RcDualMixer;

typedef struct {
  GstAggregatorClass parent_class;
} RcDualMixerClass;

GType rc_dualmixer_get_type(void);
GType rc_dualmixer_pad_get_type(void);
void rc_dualmixer_copy_settings(RcDualMixer *self, RcDualMixerSettings *out);
void rc_dualmixer_pad_copy_settings(RcDualMixerPad *pad, RcDualMixerPadSettings *out);

/* The aggregator's output segment: read its start/position, record the output position. */
GstSegment *rc_aggregator_src_segment(GstAggregator *agg);
void rc_aggregator_set_src_position(GstAggregator *agg, GstClockTime position);
/* The aggregator's start-time-selection is live (clock-driven) in this pipeline. */
gboolean rc_aggregator_is_live(GstAggregator *agg);

#endif
