/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "include/rc_debug.h"

void rc_debug_init(void) {
/* What GST_DEBUG_CATEGORY_INIT calls: the categories are found by name, not kept here. */
#define INIT_CATEGORY(name, description) _gst_debug_category_new(#name, 0, description);
  RC_ELEMENTS(INIT_CATEGORY)
#undef INIT_CATEGORY
}

GstDebugCategory *rc_debug_category(const gchar *name) {
  if (_gst_debug_get_category(name) == NULL)
    rc_debug_init();
  return _gst_debug_get_category(name);
}

void rc_debug_log(GstDebugCategory *category, GstDebugLevel level, gpointer object, const gchar *file,
                  const gchar *function, gint line, const gchar *message) {
  gst_debug_log(category, level, file, function, line, object ? G_OBJECT(object) : NULL, "%s", message);
}
