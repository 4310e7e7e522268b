/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "include/rc_debug.h"
#include "include/rc_gst.h"
#include "include/replaycast.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

#define DECLARE_ELEMENT(name, description) GST_ELEMENT_REGISTER_DECLARE(name);
RC_ELEMENTS(DECLARE_ELEMENT)

static gboolean plugin_init(GstPlugin *plugin) {
  gboolean ret = FALSE;
  rc_debug_init();
#define REGISTER_ELEMENT(name, description) ret |= GST_ELEMENT_REGISTER(name, plugin);
  RC_ELEMENTS(REGISTER_ELEMENT)
  return ret;
}

/* GST_VERSION_MAJOR and friends are parenthesised numbers: "1", not "(1)". */
#define UNPARENTHESISED(x) x
#define VERSION_PART(v) G_STRINGIFY(UNPARENTHESISED v)
#define GSTREAMER_BUILT VERSION_PART(GST_VERSION_MAJOR) "." VERSION_PART(GST_VERSION_MINOR) "." VERSION_PART(GST_VERSION_MICRO)
/* gst-inspect-1.0 shows the package name: it says which GStreamer the plugin was built for. */
#define BINARY_PACKAGE "ReplayCast, built against GStreamer " GSTREAMER_BUILT

#define PACKAGE "replaycast"
/* The plugin file and the copy replaycast_init registers into an app describe themselves alike. */
#define PLUGIN_DESCRIPTION "ReplayCast: emulate an iOS ReplayKit broadcast and turn it into a live stream"
#define PLUGIN_ORIGIN "https://replaycast.invalid"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, replaycast, PLUGIN_DESCRIPTION, plugin_init, PACKAGE_VERSION,
    "LGPL", BINARY_PACKAGE, PLUGIN_ORIGIN)

/* When the installed plugin was loaded into this process first (an element made before
 * replaycast_init), its element types exist already: registering this copy's would clash
 * with them, and the plugin's elements serve as well. */
static gboolean plugin_file_loaded(void) {
  GstPlugin *plugin = gst_registry_find_plugin(gst_registry_get(), "replaycast");
  if (plugin == NULL) return FALSE;
  gboolean loaded = gst_plugin_is_loaded(plugin) && gst_plugin_get_filename(plugin) != NULL;
  gst_object_unref(plugin);
  return loaded;
}

RC_EXPORT gboolean replaycast_init(void) {
  static gsize registered = 0;
  if (g_once_init_enter(&registered)) {
    gboolean ok = plugin_file_loaded() || gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "replaycast",
        PLUGIN_DESCRIPTION, plugin_init, PACKAGE_VERSION, "LGPL", "ReplayCast", BINARY_PACKAGE, PLUGIN_ORIGIN);
    g_once_init_leave(&registered, ok ? 1 : 2);
  }
  return registered == 1;
}

RC_EXPORT const gchar *replaycast_version(void) { return PACKAGE_VERSION; }

RC_EXPORT const gchar *replaycast_gstreamer_built(void) { return GSTREAMER_BUILT; }
