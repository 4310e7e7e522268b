/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_LLHLSSINK_H
#define RC_LLHLSSINK_H

#include "rc_element.h"

/* Property values under the object lock; Swift takes a copy when the element starts. */
typedef struct {
  gchar *location;        /* the folder: multivariant playlist, one folder per rendition */
  guint target_duration;  /* s */
  guint playlist_length;  /* segments listed; 0: all */
  guint64 part_duration;  /* ns */
} RcLLHLSSinkSettings;

typedef struct {
  GstElement parent;
  RcLLHLSSinkSettings settings;
  void *state; /* Swift LLHLSSink, retained; instance init to finalize */
} RcLLHLSSink;

RC_CLASS_STRUCT(RcLLHLSSink, GstElementClass);

GType rc_llhlssink_get_type(void);

#endif
