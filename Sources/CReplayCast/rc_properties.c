/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table-driven properties of rc_properties.h. */
#include "include/rc_properties.h"

static gpointer field(gpointer settings, const RcProperty *row) { return (guint8 *)settings + row->offset; }

static GParamSpec *param_spec(const RcProperty *row) {
  GParamFlags access = (row->flags & RC_READ_ONLY) ? G_PARAM_READABLE : G_PARAM_READWRITE;
  GParamFlags flags = access | G_PARAM_STATIC_STRINGS | (row->flags & ~RC_READ_ONLY);
  switch (row->kind) {
    case RC_PROPERTY_BOOLEAN:
      return g_param_spec_boolean(row->name, row->nick, row->blurb, (gboolean)row->value.integer.initial, flags);
    case RC_PROPERTY_INT:
      return g_param_spec_int(row->name, row->nick, row->blurb, (gint)row->value.integer.minimum,
          (gint)row->value.integer.maximum, (gint)row->value.integer.initial, flags);
    case RC_PROPERTY_UINT:
      return g_param_spec_uint(row->name, row->nick, row->blurb, (guint)row->value.integer.minimum,
          (guint)row->value.integer.maximum, (guint)row->value.integer.initial, flags);
    case RC_PROPERTY_UINT64:
      return g_param_spec_uint64(row->name, row->nick, row->blurb, row->value.unsigned64.minimum,
          row->value.unsigned64.maximum, row->value.unsigned64.initial, flags);
    case RC_PROPERTY_DOUBLE:
      return g_param_spec_double(row->name, row->nick, row->blurb, row->value.real.minimum, row->value.real.maximum,
          row->value.real.initial, flags);
    case RC_PROPERTY_ENUM:
      return g_param_spec_enum(row->name, row->nick, row->blurb, row->enum_type(), (gint)row->value.integer.initial,
          flags);
    case RC_PROPERTY_STRING:
      return g_param_spec_string(row->name, row->nick, row->blurb, row->value.text, flags);
  }
  g_return_val_if_reached(NULL);
}

void rc_properties_install(GObjectClass *klass, const RcProperty *table, guint count) {
  for (guint i = 0; i < count; i++) {
    g_object_class_install_property(klass, i + 1, param_spec(&table[i]));
    if (table[i].kind == RC_PROPERTY_ENUM)
      gst_type_mark_as_plugin_api(table[i].enum_type(), 0);
  }
}

void rc_properties_init(gpointer settings, const RcProperty *table, guint count) {
  for (guint i = 0; i < count; i++) {
    const RcProperty *row = &table[i];
    gpointer at = field(settings, row);
    switch (row->kind) {
      case RC_PROPERTY_BOOLEAN:
      case RC_PROPERTY_INT:
      case RC_PROPERTY_ENUM: *(gint *)at = (gint)row->value.integer.initial; break;
      case RC_PROPERTY_UINT: *(guint *)at = (guint)row->value.integer.initial; break;
      case RC_PROPERTY_UINT64: *(guint64 *)at = row->value.unsigned64.initial; break;
      case RC_PROPERTY_DOUBLE: *(gdouble *)at = row->value.real.initial; break;
      case RC_PROPERTY_STRING: *(gchar **)at = g_strdup(row->value.text); break;
    }
  }
}

void rc_properties_clear(gpointer settings, const RcProperty *table, guint count) {
  for (guint i = 0; i < count; i++)
    if (table[i].kind == RC_PROPERTY_STRING)
      g_clear_pointer((gchar **)field(settings, &table[i]), g_free);
}

gboolean rc_properties_set(gpointer object, gpointer settings, const RcProperty *table, guint count, guint id,
    const GValue *value) {
  if (id == 0 || id > count)
    return FALSE;
  const RcProperty *row = &table[id - 1];
  gpointer at = field(settings, row);
  GST_OBJECT_LOCK(object);
  switch (row->kind) {
    case RC_PROPERTY_BOOLEAN: *(gboolean *)at = g_value_get_boolean(value); break;
    case RC_PROPERTY_INT: *(gint *)at = g_value_get_int(value); break;
    case RC_PROPERTY_UINT: *(guint *)at = g_value_get_uint(value); break;
    case RC_PROPERTY_UINT64: *(guint64 *)at = g_value_get_uint64(value); break;
    case RC_PROPERTY_DOUBLE: *(gdouble *)at = g_value_get_double(value); break;
    case RC_PROPERTY_ENUM: *(gint *)at = g_value_get_enum(value); break;
    case RC_PROPERTY_STRING:
      g_free(*(gchar **)at);
      *(gchar **)at = g_value_dup_string(value);
      break;
  }
  GST_OBJECT_UNLOCK(object);
  return TRUE;
}

gboolean rc_properties_get(gpointer object, gconstpointer settings, const RcProperty *table, guint count, guint id,
    GValue *value) {
  if (id == 0 || id > count)
    return FALSE;
  const RcProperty *row = &table[id - 1];
  gconstpointer at = field((gpointer)settings, row);
  GST_OBJECT_LOCK(object);
  switch (row->kind) {
    case RC_PROPERTY_BOOLEAN: g_value_set_boolean(value, *(const gboolean *)at); break;
    case RC_PROPERTY_INT: g_value_set_int(value, *(const gint *)at); break;
    case RC_PROPERTY_UINT: g_value_set_uint(value, *(const guint *)at); break;
    case RC_PROPERTY_UINT64: g_value_set_uint64(value, *(const guint64 *)at); break;
    case RC_PROPERTY_DOUBLE: g_value_set_double(value, *(const gdouble *)at); break;
    case RC_PROPERTY_ENUM: g_value_set_enum(value, *(const gint *)at); break;
    case RC_PROPERTY_STRING: g_value_set_string(value, *(gchar *const *)at); break;
  }
  GST_OBJECT_UNLOCK(object);
  return TRUE;
}

gboolean rc_properties_publish(gpointer object, gpointer settings, const RcProperty *table, guint count,
    const gchar *name, gint value) {
  for (guint i = 0; i < count; i++) {
    const RcProperty *row = &table[i];
    if (g_strcmp0(row->name, name) != 0)
      continue;
    g_return_val_if_fail(row->kind != RC_PROPERTY_UINT64 && row->kind != RC_PROPERTY_DOUBLE
        && row->kind != RC_PROPERTY_STRING, FALSE);
    gint *at = field(settings, row);
    GST_OBJECT_LOCK(object);
    gboolean changed = *at != value;
    *at = value;
    GST_OBJECT_UNLOCK(object);
    return changed;
  }
  g_return_val_if_reached(FALSE);
}

void rc_properties_copy(gpointer object, gconstpointer settings, gsize size, const RcProperty *table, guint count,
    gpointer out) {
  GST_OBJECT_LOCK(object);
  memcpy(out, settings, size);
  for (guint i = 0; i < count; i++)
    if (table[i].kind == RC_PROPERTY_STRING) {
      gchar **copy = field(out, &table[i]);
      *copy = g_strdup(*copy);
    }
  GST_OBJECT_UNLOCK(object);
}

GType rc_enum_type(const gchar *name, const GEnumValue *values) {
  GType type = g_type_from_name(name);
  return type ? type : g_enum_register_static(name, values);
}
