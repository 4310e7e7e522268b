/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One GStreamer debug category per element, named after its factory, so that
 * GST_DEBUG=pipcompositor:6 shows what pipcompositor decides. GST_DEBUG_CATEGORY_INIT and
 * gst_debug_log's format string do not import into Swift: Swift logs through
 * rc_debug_log with a finished message (see DebugLog.swift). */
#ifndef RC_DEBUG_H
#define RC_DEBUG_H

#include <gst/gst.h>

typedef enum {
  RC_LOG_VOLUMEMETER,
  RC_LOG_REPLAYKITSRC,
  RC_LOG_DUALMIXER,
  RC_LOG_PIPCOMPOSITOR,
  RC_LOG_RTMPRECONNECTSINK,
  RC_LOG_COUNT,
} RcLogCategory;

/* Creates the categories; plugin_init calls it, before any element exists. */
void rc_debug_init(void);
GstDebugLevel rc_debug_threshold(RcLogCategory category);
void rc_debug_log(RcLogCategory category, GstDebugLevel level, gpointer object, const gchar *file,
                  const gchar *function, gint line, const gchar *message);

#endif
