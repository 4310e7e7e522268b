/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Everything Swift sees of the C side: instance structs of our element types, the
 * macro/variadic replacements in rc_gst.h, the version shims in rc_compat.h, and the
 * public header for applications. */
#ifndef CREPLAYCAST_H
#define CREPLAYCAST_H

#include "rc_gst.h"
#include "rc_compat.h"
#include "rc_volumemeter.h"
#include "rc_replaykitsrc.h"
#include "rc_dualmixer.h"
#include "rc_pipcompositor.h"
#include "rc_rtmpreconnectsink.h"
#include "rc_debug.h"

/* replaycast_init() registers the elements in-process (tests, the CLI, applications). */
#include "replaycast.h"

#endif
