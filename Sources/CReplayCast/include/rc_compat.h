/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one place where GLib and GStreamer versions differ for us. Each shim names the
 * version that needs it and when it can go; code elsewhere is written once for every
 * supported release (Debian 12's GStreamer 1.22 through 1.28). */
#ifndef RC_COMPAT_H
#define RC_COMPAT_H

#include <gst/gst.h>

/* GLib 2.86 declares GLogLevelFlags as a flag enum, so Swift imports it as an option set
 * and the G_LOG_LEVEL_* globals disappear; earlier GLib imports them as globals. These
 * give the same values on both. Can go when GLib 2.86 is the oldest supported. */
static inline GLogLevelFlags rc_log_level_warning(void) { return G_LOG_LEVEL_WARNING; }
static inline GLogLevelFlags rc_log_level_critical(void) { return G_LOG_LEVEL_CRITICAL; }

/* GParamFlags likewise, from GLib 2.86 (its G_PARAM_* globals disappear), and GStreamer's
 * GST_PARAM_* are macros: PropertyRow.swift builds param flags from these bits, the same on
 * every release. */
enum {
  RC_PARAM_READABLE = G_PARAM_READABLE,
  RC_PARAM_READWRITE = G_PARAM_READWRITE,
  RC_PARAM_STATIC_STRINGS = G_PARAM_STATIC_STRINGS,
  RC_PARAM_DEPRECATED = G_PARAM_DEPRECATED,
  RC_PARAM_CONTROLLABLE = GST_PARAM_CONTROLLABLE,
  RC_PARAM_MUTABLE_READY = GST_PARAM_MUTABLE_READY,
  RC_PARAM_MUTABLE_PLAYING = GST_PARAM_MUTABLE_PLAYING,
};

#endif
