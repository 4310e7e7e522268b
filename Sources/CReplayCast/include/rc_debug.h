/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One GStreamer debug category per element, named after its factory, so that
 * GST_DEBUG=pipcompositor:6 shows what pipcompositor decides. GST_DEBUG_CATEGORY_INIT and
 * gst_debug_log's format string do not import into Swift: Swift logs through
 * rc_debug_log with a finished message (see DebugLog.swift). */
#ifndef RC_DEBUG_H
#define RC_DEBUG_H

#include <gst/gst.h>

/* Every element of the plugin, once: factory name (also its debug category's and its
 * GST_ELEMENT_REGISTER name) and the category's description. plugin.c registers each,
 * rc_debug.c creates each category, Swift finds it by the factory name. */
#define RC_ELEMENTS(X)                                                        \
  X(volumemeter, "ReplayCast volumemeter")                                    \
  X(replaykitsrc, "ReplayCast ReplayKit emulator")                            \
  X(dualmixer, "ReplayCast app + mic mixer")                                  \
  X(pipcompositor, "ReplayCast picture-in-picture")                           \
  X(rtmpreconnectsink, "ReplayCast RTMP and SRT sink that reconnects")        \
  X(llhlssink, "ReplayCast Low-Latency HLS sink")

/* Creates the categories; plugin_init calls it, before any element exists. Again is harmless:
 * GStreamer gives back the category a name already has. */
void rc_debug_init(void);
/* The category of an element of RC_ELEMENTS, created first if plugin_init has not run yet;
 * NULL for any other name. */
GstDebugCategory *rc_debug_category(const gchar *name);
void rc_debug_log(GstDebugCategory *category, GstDebugLevel level, gpointer object, const gchar *file,
                  const gchar *function, gint line, const gchar *message);

#endif
