/* Everything Swift sees of the C side: instance structs of our element types, the
 * macro/variadic replacements in rc_gst.h, and the plugin entry point for in-process use. */
#ifndef CREPLAYCAST_H
#define CREPLAYCAST_H

#include "rc_gst.h"
#include "rc_volumemeter.h"
#include "rc_replaykitsrc.h"
#include "rc_dualmixer.h"
#include "rc_pipcompositor.h"
#include "rc_rtmpreconnectsink.h"
#include "rc_text_stream.h"
#include "rc_debug.h"

/* Registers the plugin with the running process's registry (tests, the CLI). Idempotent. */
gboolean rc_plugin_register_static(void);
/* The plugin's version, as gst-inspect-1.0 shows it. */
const gchar *rc_plugin_version(void);

#endif
