/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGSTREAMER_SHIM_H
#define CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/base/base.h>
#include <gst/audio/audio.h>
#include <gst/audio/gstaudioaggregator.h>
#include <gst/video/video.h>
#include <gst/video/gstvideoaggregator.h>
#include <gio/gio.h>
#endif
