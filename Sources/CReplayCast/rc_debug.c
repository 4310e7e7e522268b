/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "include/rc_debug.h"

static GstDebugCategory *categories[RC_LOG_COUNT];

void rc_debug_init(void) {
#define INIT_CATEGORY(name, NAME, description) \
  GST_DEBUG_CATEGORY_INIT(categories[RC_LOG_##NAME], #name, 0, description);
  RC_ELEMENTS(INIT_CATEGORY)
#undef INIT_CATEGORY
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
