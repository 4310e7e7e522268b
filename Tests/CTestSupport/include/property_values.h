/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_PROPERTY_VALUES_H
#define RC_PROPERTY_VALUES_H
#include <glib-object.h>

/* The properties a test may write on `object`: writable, not construct-only, and not
 * GstObject's (name, parent) or GstPad's (template, offset). Free the array with g_free. */
GParamSpec **rc_writable_properties(gpointer object, guint *count);

/* A legal value for `pspec` in `value` (initialised here): its minimum (pick 0), maximum
 * (1), default (2), or the point `unit` in [0, 1) of its range (3); enums take the value
 * numbered by `unit`. FALSE for types without a range (strings, objects, boxed). */
gboolean rc_property_pick(GParamSpec *pspec, guint pick, gdouble unit, GValue *value);

/* Whether `pspec` carries G_PARAM_DEPRECATED (GParamFlags imports into Swift differently
 * with newer GLib, which declares it a flag enum). */
gboolean rc_param_is_deprecated(GParamSpec *pspec);

#endif
