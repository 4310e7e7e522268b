/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_LEAKS_REPORT_H
#define RC_LEAKS_REPORT_H
#include <glib.h>

/* What GStreamer's leaks tracer still sees alive: NULL when the tracer is not active, else
 * a text whose first line is "<n> alive" and whose next lines count them by type and name
 * (free with g_free). With RC_LEAKS_DETAILS set, each one's tracer entry follows, with its
 * address, reference count, parent and state. */
gchar *rc_leaks_report(void);

#endif
