/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rc_debug.h"

static GstDebugCategory *categories[RC_LOG_COUNT];

void rc_debug_init(void) {
  GST_DEBUG_CATEGORY_INIT(categories[RC_LOG_VOLUMEMETER], "volumemeter", 0, "ReplayCast volumemeter");
  GST_DEBUG_CATEGORY_INIT(categories[RC_LOG_REPLAYKITSRC], "replaykitsrc", 0, "ReplayCast ReplayKit emulator");
  GST_DEBUG_CATEGORY_INIT(categories[RC_LOG_DUALMIXER], "dualmixer", 0, "ReplayCast app + mic mixer");
  GST_DEBUG_CATEGORY_INIT(categories[RC_LOG_PIPCOMPOSITOR], "pipcompositor", 0, "ReplayCast picture-in-picture");
  GST_DEBUG_CATEGORY_INIT(categories[RC_LOG_RTMPRECONNECTSINK], "rtmpreconnectsink", 0, "ReplayCast RTMP sink that reconnects");
}

GstDebugLevel rc_debug_threshold(RcLogCategory category) {
  GstDebugCategory *c = category < RC_LOG_COUNT ? categories[category] : NULL;
  return c ? gst_debug_category_get_threshold(c) : GST_LEVEL_NONE;
}

void rc_debug_log(RcLogCategory category, GstDebugLevel level, gpointer object, const gchar *file,
                  const gchar *function, gint line, const gchar *message) {
  GstDebugCategory *c = category < RC_LOG_COUNT ? categories[category] : NULL;
  if (c)
    gst_debug_log(c, level, file, function, line, object ? G_OBJECT(object) : NULL, "%s", message);
}
