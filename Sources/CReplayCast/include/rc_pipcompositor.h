/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_PIPCOMPOSITOR_H
#define RC_PIPCOMPOSITOR_H

#include "rc_element.h"
#include <gst/video/gstvideoaggregator.h>

/* Element property values. The enum values of `background` are compositor's, plus COLOR. */
typedef enum {
  RC_PIP_BACKGROUND_CHECKER = 0,
  RC_PIP_BACKGROUND_BLACK = 1,
  RC_PIP_BACKGROUND_WHITE = 2,
  RC_PIP_BACKGROUND_TRANSPARENT = 3,
  RC_PIP_BACKGROUND_COLOR = 4,
} RcPipBackground;

typedef enum { RC_PIP_SIZING_NONE = 0, RC_PIP_SIZING_KEEP_ASPECT_RATIO = 1 } RcPipSizingPolicy;

typedef enum {
  RC_PIP_POSITION_CUSTOM = 0,
  RC_PIP_POSITION_TOP_LEFT = 1,
  RC_PIP_POSITION_TOP_RIGHT = 2,
  RC_PIP_POSITION_BOTTOM_LEFT = 3,
  RC_PIP_POSITION_BOTTOM_RIGHT = 4,
} RcPipPosition;

typedef struct {
  RcPipBackground background;
  guint background_color; /* ARGB */
  /* Our own timing rules, beside GstAggregator's (whose properties keep their meaning):
   * live, start on the main input's first frame; end when the main input ends. */
  gboolean start_with_main;
  gboolean end_with_main;
} RcPipCompositorSettings;

/* Pad property values, guarded by the pad's object lock; the aggregator thread copies them
 * once per output frame (PadSnapshot.take) and draws from the copy. */
typedef struct {
  gint xpos, ypos, width, height;
  gdouble alpha;
  RcPipSizingPolicy sizing_policy;
  RcPipPosition position;
  guint margin;
  gdouble scale;
  guint border_width;
  guint border_color; /* ARGB */
  guint corner_radius;
} RcPipPadSettings;

typedef struct {
  GstVideoAggregatorPad parent;
  RcPipPadSettings settings;
  /* Aggregator thread only (it creates the output buffer, then prepares the frames, then
   * aggregates): when set, prepare_frame leaves this pad's buffer unmapped because the
   * element reads (or took) it itself. */
  gboolean skip_prepare;
  void *state; /* Swift PictureLayer, retained; pad init to finalize */
} RcPipCompositorPad;

RC_CLASS_STRUCT(RcPipCompositorPad, GstVideoAggregatorPadClass);

typedef struct {
  GstVideoAggregator parent;
  RcPipCompositorSettings settings; /* object lock */
  void *state;                      /* Swift PipCompositor, retained; instance init to finalize */
} RcPipCompositor;

RC_CLASS_STRUCT(RcPipCompositor, GstVideoAggregatorClass);

GType rc_pipcompositor_get_type(void);
GType rc_pipcompositor_pad_get_type(void);

/* A pool of buffers without memory, each with a video meta (rc_wrapper_pool.c); active, or
 * NULL if it could not be set up. */
GstBufferPool *rc_wrapper_pool_new(void);

/* The pad templates' caps, the same for sink and src pads (a new reference). */
GstCaps *rc_pipcompositor_template_caps(void);

/* The default output buffer (the negotiated pool), as the base class would allocate it. */
GstFlowReturn rc_pipcompositor_allocate_output(RcPipCompositor *self, GstBuffer **outbuf);
/* The base class's aggregate: picks the inputs' buffers and makes (or not) an output frame. */
GstFlowReturn rc_pipcompositor_parent_aggregate(RcPipCompositor *self, gboolean timeout);

static inline gint rc_buffer_refcount(GstBuffer *buffer) { return GST_MINI_OBJECT_REFCOUNT_VALUE(buffer); }

#endif
