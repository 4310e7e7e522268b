/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "property_values.h"
#include <gst/gst.h>

GParamSpec **rc_writable_properties(gpointer object, guint *count) {
  guint all = 0;
  GParamSpec **specs = g_object_class_list_properties(G_OBJECT_GET_CLASS(object), &all);
  guint kept = 0;
  for (guint i = 0; i < all; i++) {
    gboolean writable = (specs[i]->flags & G_PARAM_WRITABLE) && !(specs[i]->flags & G_PARAM_CONSTRUCT_ONLY);
    /* GstObject's name and parent, and GstPad's template and offset (an offset moves the
     * stream in time: the hostile-input tests cover timestamp jumps) are GStreamer's. */
    gboolean gstreamers = specs[i]->owner_type == GST_TYPE_OBJECT || specs[i]->owner_type == GST_TYPE_PAD;
    if (writable && !gstreamers) specs[kept++] = specs[i];
  }
  *count = kept;
  return specs;
}

/* One of minimum, maximum, default or a point between, for any numeric spec type. */
#define PICK(min, max, def) \
  (pick == 0 ? (min) : pick == 1 ? (max) : pick == 2 ? (def) : (min) + ((max) - (min)) * unit)

gboolean rc_property_pick(GParamSpec *pspec, guint pick, gdouble unit, GValue *value) {
  g_value_init(value, pspec->value_type);
  if (G_IS_PARAM_SPEC_BOOLEAN(pspec)) {
    g_value_set_boolean(value, unit >= 0.5);
  } else if (G_IS_PARAM_SPEC_INT(pspec)) {
    GParamSpecInt *p = G_PARAM_SPEC_INT(pspec);
    g_value_set_int(value, (gint)PICK((gdouble)p->minimum, (gdouble)p->maximum, (gdouble)p->default_value));
  } else if (G_IS_PARAM_SPEC_UINT(pspec)) {
    GParamSpecUInt *p = G_PARAM_SPEC_UINT(pspec);
    g_value_set_uint(value, (guint)PICK((gdouble)p->minimum, (gdouble)p->maximum, (gdouble)p->default_value));
  } else if (G_IS_PARAM_SPEC_INT64(pspec)) {
    GParamSpecInt64 *p = G_PARAM_SPEC_INT64(pspec);
    gint64 v = pick == 0 ? p->minimum : pick == 1 ? p->maximum : pick == 2 ? p->default_value
             : p->minimum + (gint64)(((gdouble)p->maximum - (gdouble)p->minimum) * unit);
    g_value_set_int64(value, CLAMP(v, p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_UINT64(pspec)) {
    GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64(pspec);
    /* Doubles cannot hold every guint64; the in-between point is clamped into range. */
    gdouble between = (gdouble)p->minimum + ((gdouble)p->maximum - (gdouble)p->minimum) * unit;
    guint64 v = pick == 0 ? p->minimum : pick == 1 ? p->maximum : pick == 2 ? p->default_value
              : between >= 18446744073709549568.0 ? p->maximum : (guint64)between;
    g_value_set_uint64(value, CLAMP(v, p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_DOUBLE(pspec)) {
    GParamSpecDouble *p = G_PARAM_SPEC_DOUBLE(pspec);
    g_value_set_double(value, CLAMP(PICK(p->minimum, p->maximum, p->default_value), p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_FLOAT(pspec)) {
    GParamSpecFloat *p = G_PARAM_SPEC_FLOAT(pspec);
    g_value_set_float(value, CLAMP((gfloat)PICK(p->minimum, p->maximum, p->default_value), p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_ENUM(pspec)) {
    GEnumClass *e = G_PARAM_SPEC_ENUM(pspec)->enum_class;
    guint index = MIN((guint)(unit * e->n_values), e->n_values - 1);
    g_value_set_enum(value, e->values[index].value);
  } else {
    g_value_unset(value);
    return FALSE;
  }
  return TRUE;
}

gboolean rc_param_is_deprecated(GParamSpec *pspec) { return (pspec->flags & G_PARAM_DEPRECATED) != 0; }
