/* GValueArray is deprecated in GLib, but it is what `level` posts and what existing level
 * applications read; we keep the same type on purpose. */
#define GLIB_DISABLE_DEPRECATION_WARNINGS
#include "include/rc_gst.h"

void rc_structure_set_uint64(GstStructure *s, GQuark field, guint64 v) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_UINT64);
  g_value_set_uint64(&value, v);
  gst_structure_id_take_value(s, field, &value);
}

void rc_structure_set_double(GstStructure *s, GQuark field, gdouble v) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_DOUBLE);
  g_value_set_double(&value, v);
  gst_structure_id_take_value(s, field, &value);
}

void rc_structure_set_boolean(GstStructure *s, GQuark field, gboolean v) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_BOOLEAN);
  g_value_set_boolean(&value, v);
  gst_structure_id_take_value(s, field, &value);
}

void rc_structure_set_string(GstStructure *s, GQuark field, const gchar *v) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_STRING);
  g_value_set_string(&value, v);
  gst_structure_id_take_value(s, field, &value);
}

void rc_structure_set_int(GstStructure *s, GQuark field, gint v) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_INT);
  g_value_set_int(&value, v);
  gst_structure_id_take_value(s, field, &value);
}

void rc_structure_take_structure(GstStructure *s, GQuark field, GstStructure *v) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, GST_TYPE_STRUCTURE);
  g_value_take_boxed(&value, v);
  gst_structure_id_take_value(s, field, &value);
}

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
