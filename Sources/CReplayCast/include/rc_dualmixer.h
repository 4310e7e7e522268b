/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_DUALMIXER_H
#define RC_DUALMIXER_H

#include "rc_element.h"

typedef enum { RC_MIX_SUM = 0, RC_MIX_AVERAGE = 1 } RcMixMode;

/* Element properties (DualMixerProperties.swift); guarded by the object lock, copied once per
 * output buffer. */
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
  /* The aggregator's own chain function, which queues a buffer for the aggregator thread. */
  GstPadChainFunction aggregator_chain;
  void *state; /* NULL: the pad's streaming state is the mixer's (MixerInput) */
} RcDualMixerPad;

RC_CLASS_STRUCT(RcDualMixerPad, GstAggregatorPadClass);

typedef struct {
  GstAggregator parent;
  RcDualMixerSettings settings;
  RcDualMixerPad *pads[2];
  void *state; /* Swift DualMixer, retained; instance init to finalize */
} RcDualMixer;

RC_CLASS_STRUCT(RcDualMixer, GstAggregatorClass);

GType rc_dualmixer_get_type(void);
GType rc_dualmixer_pad_get_type(void);

/* The aggregator's own chain function: queues `buffer` (taking it) for the aggregator thread. */
GstFlowReturn rc_dualmixer_aggregator_chain(RcDualMixerPad *pad, GstBuffer *buffer);
/* The base class's handlers, for the Swift overrides (DualMixerEvents.swift) that work around them. */
GstFlowReturn rc_dualmixer_parent_sink_event_pre_queue(RcDualMixer *self, RcDualMixerPad *pad, GstEvent *event);
gboolean rc_dualmixer_parent_src_event(RcDualMixer *self, GstEvent *event);
GstStateChangeReturn rc_dualmixer_parent_change_state(RcDualMixer *self, GstStateChange transition);

#endif
