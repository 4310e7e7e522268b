/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One GStreamer debug category per element, named after its factory, so that
 * GST_DEBUG=pipcompositor:6 shows what pipcompositor decides. GST_DEBUG_CATEGORY_INIT and
 * gst_debug_log's format string do not import into Swift: Swift logs through
 * rc_debug_log with a finished message (see DebugLog.swift). */
#ifndef RC_DEBUG_H
#define RC_DEBUG_H

#include <gst/gst.h>

/* Every element of the plugin, once: factory name (also its debug category's and its
 * GST_ELEMENT_REGISTER name), the suffix of its RcLogCategory, the category's description.
 * plugin.c registers each, rc_debug.c creates each category. */
#define RC_ELEMENTS(X)                                                        \
  X(volumemeter, VOLUMEMETER, "ReplayCast volumemeter")                       \
  X(replaykitsrc, REPLAYKITSRC, "ReplayCast ReplayKit emulator")              \
  X(dualmixer, DUALMIXER, "ReplayCast app + mic mixer")                       \
  X(pipcompositor, PIPCOMPOSITOR, "ReplayCast picture-in-picture")            \
  X(rtmpreconnectsink, RTMPRECONNECTSINK, "ReplayCast RTMP and SRT sink that reconnects")

#define RC_LOG_CATEGORY_ENUM(name, NAME, description) RC_LOG_##NAME,
typedef enum { RC_ELEMENTS(RC_LOG_CATEGORY_ENUM) RC_LOG_COUNT } RcLogCategory;
#undef RC_LOG_CATEGORY_ENUM

/* Creates the categories; plugin_init calls it, before any element exists. */
void rc_debug_init(void);
GstDebugLevel rc_debug_threshold(RcLogCategory category);
void rc_debug_log(RcLogCategory category, GstDebugLevel level, gpointer object, const gchar *file,
                  const gchar *function, gint line, const gchar *message);

#endif
