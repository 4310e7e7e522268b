#ifndef RC_DUALMIXER_H
#define RC_DUALMIXER_H

#include "rc_gst.h"
#include "rc_properties.h"

typedef enum {
  RC_MIX_SUM = 0,
  RC_MIX_AVERAGE = 1,
} RcMixMode;

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
  /* The segment as the upstream thread sees it (the base class updates its own `segment`
   * later, on the aggregator's thread); used to time buffers as they arrive. */
  GstSegment input_segment;
  /* Between this pad's FLUSH_START and FLUSH_STOP; under the element's progress_lock. */
  gboolean flushing;
  /* The buffer the upstream thread is in chain with (streaming thread only), queued again
   * as the token while the input waits for room. */
  GstBuffer *token;
} RcDualMixerPad;

typedef struct {
  GstAggregatorPadClass parent_class;
} RcDualMixerPadClass;

typedef struct {
  GstAggregator parent;
  RcDualMixerSettings settings;
  RcDualMixerPad *pads[2];
  /* Flow control between the inputs' upstream threads, which process buffers as they
   * arrive, and the aggregator thread, which mixes: an input far enough ahead waits for
   * `progress` to move (see rc_dualmixer_wait_progress). */
  GMutex progress_lock;
  GCond progress_cond;
  guint64 progress;
  /* PAUSED -> READY: every wait ends. */
  gboolean stopping;
  /* From a flushing seek until the base class has flushed the mixer (after the last pad's
   * FLUSH_STOP): an input that is done flushing first waits, so its new data meets a mixer
   * that starts again, not the state from before the seek. */
  gboolean restarting;
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
/* Before an input's data after a flushing seek: FALSE if its pad is flushing again or the
 * element stopping. */
gboolean rc_dualmixer_wait_restarted(RcDualMixer *self, gint pad);
/* Hands the pad's token (the buffer in chain) to the aggregator's queue unless one is queued. */
GstFlowReturn rc_dualmixer_queue_token(RcDualMixerPad *pad);
/* An upstream thread waits until the mixer has moved on since it saw `seen` (returns TRUE),
 * or its pad is flushing or the element stopping (returns FALSE); its token is queued
 * first, so the mixer never waits for an input that waits for the mixer. */
guint64 rc_dualmixer_progress(RcDualMixer *self);
gboolean rc_dualmixer_wait_progress(RcDualMixer *self, gint pad, guint64 seen);
void rc_dualmixer_signal_progress(RcDualMixer *self);

/* The aggregator's start-time-selection and start-time properties. */
GstAggregatorStartTimeSelection rc_aggregator_start_time_selection(GstAggregator *agg, GstClockTime *start_time);

#endif
