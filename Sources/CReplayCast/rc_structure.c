/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GValueArray is deprecated in GLib, but it is what `level` posts and what existing level
 * applications read; we keep the same type on purpose. */
#define GLIB_DISABLE_DEPRECATION_WARNINGS
#include "include/rc_gst.h"

void rc_structure_set_double_array(GstStructure *s, GQuark field, const gdouble *values, guint n) {
  GValueArray *array = g_value_array_new(n);
  GValue item = G_VALUE_INIT;
  g_value_init(&item, G_TYPE_DOUBLE);
  for (guint i = 0; i < n; i++) {
    g_value_set_double(&item, values[i]);
    g_value_array_append(array, &item);
  }
  g_value_unset(&item);

  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_VALUE_ARRAY);
  g_value_take_boxed(&value, array);
  gst_structure_id_take_value(s, field, &value);
}
