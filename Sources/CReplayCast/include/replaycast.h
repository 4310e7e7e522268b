/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ReplayCast for C applications: register the elements in-process, and the names of the
 * messages they post and of their fields. docs/embedding.md has the reference (types,
 * units); Tests/system/message_reference.py checks both against what the elements post.
 *
 *   gst_init(&argc, &argv);
 *   if (!replaycast_init()) return 1;
 *   pipeline = gst_parse_launch("replaykitsrc name=rk ... ! volumemeter ! ...", &error);
 *
 * Build with `pkg-config --cflags --libs replaycast` (installed by scripts/install). */
#ifndef REPLAYCAST_H
#define REPLAYCAST_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Registers replaykitsrc, dualmixer, volumemeter, pipcompositor and rtmpreconnectsink with
 * this process's registry, so no plugin needs installing. Call after gst_init(); calling it
 * again does nothing. When the installed plugin was loaded into the process first, its
 * elements are used and this returns TRUE too. FALSE: the registration failed (a GStreamer
 * older than the one ReplayCast was built against). */
__attribute__((visibility("default"))) gboolean replaycast_init(void);

/* The library's version, as gst-inspect-1.0 shows it for the plugin. */
__attribute__((visibility("default"))) const gchar *replaycast_version(void);

/* The GStreamer version whose headers the library was built with, e.g. "1.22.0" (the one it
 * runs on is gst_version_string()'s). */
__attribute__((visibility("default"))) const gchar *replaycast_gstreamer_built(void);

/* Element messages (GST_MESSAGE_ELEMENT): gst_structure_has_name(s, REPLAYCAST_MESSAGE_…). */

/* volumemeter, once per interval. Times are guint64 ns; levels GValueArray of gdouble per
 * channel in dBFS; with loudness=true, loudness gdouble LUFS (maxima since the last `reset`
 * action signal), loudness range gdouble LU, true peak per channel in dBTP. */
#define REPLAYCAST_MESSAGE_VOLUMEMETER "volumemeter"
#define REPLAYCAST_FIELD_TIMESTAMP "timestamp"
#define REPLAYCAST_FIELD_STREAM_TIME "stream-time"
#define REPLAYCAST_FIELD_RUNNING_TIME "running-time"
#define REPLAYCAST_FIELD_DURATION "duration"
#define REPLAYCAST_FIELD_ENDTIME "endtime"
#define REPLAYCAST_FIELD_RMS "rms"
#define REPLAYCAST_FIELD_PEAK "peak"
#define REPLAYCAST_FIELD_DECAY "decay"
#define REPLAYCAST_FIELD_VOLUME "volume"
#define REPLAYCAST_FIELD_MOMENTARY "momentary"
#define REPLAYCAST_FIELD_SHORT_TERM "short-term"
#define REPLAYCAST_FIELD_INTEGRATED "integrated"
#define REPLAYCAST_FIELD_TRUE_PEAK "true-peak"
#define REPLAYCAST_FIELD_MAX_MOMENTARY "max-momentary"
#define REPLAYCAST_FIELD_MAX_SHORT_TERM "max-short-term"
#define REPLAYCAST_FIELD_LOUDNESS_RANGE "loudness-range"
#define REPLAYCAST_FIELD_MAX_TRUE_PEAK "max-true-peak"

/* dualmixer with post-levels=true: timestamp, running-time, duration as above; per input
 * and for the mix, rms and peak (GValueArray of gdouble, dBFS); each input's state string. */
#define REPLAYCAST_MESSAGE_DUALMIXER_LEVELS "dualmixer-levels"
#define REPLAYCAST_FIELD_APP_RMS "app-rms"
#define REPLAYCAST_FIELD_APP_PEAK "app-peak"
#define REPLAYCAST_FIELD_MIC_RMS "mic-rms"
#define REPLAYCAST_FIELD_MIC_PEAK "mic-peak"
#define REPLAYCAST_FIELD_MIX_RMS "mix-rms"
#define REPLAYCAST_FIELD_MIX_PEAK "mix-peak"
#define REPLAYCAST_FIELD_APP_STATE "app-state"
#define REPLAYCAST_FIELD_MIC_STATE "mic-state"
#define REPLAYCAST_INPUT_ACTIVE "active"
#define REPLAYCAST_INPUT_SILENT "silent"
#define REPLAYCAST_INPUT_ABSENT "absent"

/* replaykitsrc's broadcast lifecycle. started: device (string), width, height (gint),
 * is-live (gboolean), setup-info (GstStructure, when set). The others: broadcast-time and
 * running-time (guint64 ns), action (string, in the schedule's syntax). */
#define REPLAYCAST_MESSAGE_BROADCAST_STARTED "replaykit-broadcast-started"
#define REPLAYCAST_MESSAGE_BROADCAST_PAUSED "replaykit-broadcast-paused"
#define REPLAYCAST_MESSAGE_BROADCAST_RESUMED "replaykit-broadcast-resumed"
#define REPLAYCAST_MESSAGE_BROADCAST_FINISHED "replaykit-broadcast-finished"
#define REPLAYCAST_MESSAGE_BROADCAST_EVENT "replaykit-broadcast-event"
#define REPLAYCAST_FIELD_DEVICE "device"
#define REPLAYCAST_FIELD_WIDTH "width"
#define REPLAYCAST_FIELD_HEIGHT "height"
#define REPLAYCAST_FIELD_IS_LIVE "is-live"
#define REPLAYCAST_FIELD_SETUP_INFO "setup-info"
#define REPLAYCAST_FIELD_BROADCAST_TIME "broadcast-time"
#define REPLAYCAST_FIELD_ACTION "action"

/* rtmpreconnectsink's connection. All carry location (string); connected: attempt;
 * disconnected: reason; reconnecting: attempt, delay (ns), retries (gint), reason;
 * reconnected: attempt, downtime (ns), dropped (buffers). Counts and times are guint64.
 * bitrate (adaptive-bitrate): old-bitrate, new-bitrate, send-rate (gint, kbit/s), reason
 * ("congested" or "recovered"), queued (guint64 ns), encoder (string). */
#define REPLAYCAST_MESSAGE_RTMP_CONNECTED "rtmp-connected"
#define REPLAYCAST_MESSAGE_RTMP_DISCONNECTED "rtmp-disconnected"
#define REPLAYCAST_MESSAGE_RTMP_RECONNECTING "rtmp-reconnecting"
#define REPLAYCAST_MESSAGE_RTMP_RECONNECTED "rtmp-reconnected"
#define REPLAYCAST_MESSAGE_RTMP_BITRATE "rtmp-bitrate"
#define REPLAYCAST_FIELD_LOCATION "location"
#define REPLAYCAST_FIELD_ATTEMPT "attempt"
#define REPLAYCAST_FIELD_DELAY "delay"
#define REPLAYCAST_FIELD_RETRIES "retries"
#define REPLAYCAST_FIELD_REASON "reason"
#define REPLAYCAST_FIELD_DOWNTIME "downtime"
#define REPLAYCAST_FIELD_DROPPED "dropped"
#define REPLAYCAST_FIELD_OLD_BITRATE "old-bitrate"
#define REPLAYCAST_FIELD_NEW_BITRATE "new-bitrate"
#define REPLAYCAST_FIELD_SEND_RATE "send-rate"
#define REPLAYCAST_FIELD_QUEUED "queued"
#define REPLAYCAST_FIELD_ENCODER "encoder"

/* llhlssink: a rendition's segment is complete and listed in its playlist. rendition
 * (string: the pad's name), location (string: the segment file), sequence (its media
 * sequence number), bytes, duration (ns), running-time (ns, at its end); all guint64 but
 * the strings. */
#define REPLAYCAST_MESSAGE_LLHLSSINK_SEGMENT "llhlssink-segment"
#define REPLAYCAST_FIELD_RENDITION "rendition"
#define REPLAYCAST_FIELD_SEQUENCE "sequence"
#define REPLAYCAST_FIELD_BYTES "bytes"

G_END_DECLS

#endif
