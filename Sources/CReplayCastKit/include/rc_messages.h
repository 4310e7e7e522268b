/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What an application needs to read the elements' messages and drive their action signals
 * that Swift cannot say itself: g_signal_emit_by_name is variadic, GValueArray deprecated. */
#ifndef RC_MESSAGES_H
#define RC_MESSAGES_H

#include <gst/gst.h>

/* g_signal_emit_by_name for an action signal without arguments or return value. */
static inline void rc_emit_action(gpointer obj, const gchar *signal) { g_signal_emit_by_name(obj, signal); }
/* g_signal_emit_by_name for an action signal taking a string and returning a boolean. */
static inline gboolean rc_emit_string_action(gpointer obj, const gchar *signal, const gchar *argument) {
  gboolean result = FALSE;
  g_signal_emit_by_name(obj, signal, argument, &result);
  return result;
}

/* Reads a list of doubles (GValueArray as level and volumemeter post it, or a
 * GstValueArray/List) into `out`; returns the number of values, which may exceed
 * `capacity`, or -1 if the field is missing or not such a list. */
gint rc_structure_get_double_array(const GstStructure *s, const gchar *field, gdouble *out, gint capacity);

#endif
