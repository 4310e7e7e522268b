#include "include/CReplayCast.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

static gboolean plugin_init(GstPlugin *plugin) {
  rc_debug_init();
  return gst_element_register(plugin, "volumemeter", GST_RANK_NONE, rc_volumemeter_get_type())
      && gst_element_register(plugin, "replaykitsrc", GST_RANK_NONE, rc_replaykitsrc_get_type())
      && gst_element_register(plugin, "dualmixer", GST_RANK_NONE, rc_dualmixer_get_type())
      && gst_element_register(plugin, "pipcompositor", GST_RANK_NONE, rc_pipcompositor_get_type())
      && gst_element_register(plugin, "rtmpreconnectsink", GST_RANK_NONE, rc_rtmpreconnectsink_get_type());
}

#define PACKAGE "replaycast"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, replaycast,
    "ReplayCast: emulate an iOS ReplayKit broadcast and turn it into a live stream",
    plugin_init, PACKAGE_VERSION, "LGPL", "ReplayCast", "https://replaycast.invalid")

RC_EXPORT gboolean rc_plugin_register_static(void) {
  static gsize registered = 0;
  if (g_once_init_enter(&registered)) {
    gboolean ok = gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "replaycast",
        "ReplayCast: emulate an iOS ReplayKit broadcast and turn it into a live stream",
        plugin_init, PACKAGE_VERSION, "LGPL", "ReplayCast", "ReplayCast",
        "https://replaycast.invalid");
    g_once_init_leave(&registered, ok ? 1 : 2);
  }
  return registered == 1;
}

RC_EXPORT const gchar *rc_plugin_version(void) { return PACKAGE_VERSION; }
