/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GValueArray is deprecated in GLib, but it is what `level` and volumemeter post. */
#define GLIB_DISABLE_DEPRECATION_WARNINGS
#include "include/rc_messages.h"

gint rc_structure_get_double_array(const GstStructure *s, const gchar *field, gdouble *out, gint capacity) {
  const GValue *value = gst_structure_get_value(s, field);
  if (value == NULL)
    return -1;
  guint n;
  if (G_VALUE_HOLDS(value, G_TYPE_VALUE_ARRAY)) {
    GValueArray *array = g_value_get_boxed(value);
    n = array ? array->n_values : 0;
    for (guint i = 0; i < n && (gint)i < capacity; i++)
      out[i] = g_value_get_double(g_value_array_get_nth(array, i));
  } else if (GST_VALUE_HOLDS_ARRAY(value) || GST_VALUE_HOLDS_LIST(value)) {
    n = GST_VALUE_HOLDS_ARRAY(value) ? gst_value_array_get_size(value) : gst_value_list_get_size(value);
    for (guint i = 0; i < n && (gint)i < capacity; i++) {
      const GValue *item = GST_VALUE_HOLDS_ARRAY(value) ? gst_value_array_get_value(value, i)
                                                        : gst_value_list_get_value(value, i);
      out[i] = G_VALUE_HOLDS_DOUBLE(item) ? g_value_get_double(item) : 0.0;
    }
  } else {
    return -1;
  }
  return (gint)n;
}
