/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* replaykitsrc: GType, properties, action signals, pads, state changes and the three
 * stream tasks. What each stream produces, and when, is decided in Swift
 * (ReplayKitSource.swift), and how its tasks wait in StreamWaits.swift. */
#include "include/rc_replaykitsrc.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
void *rc_replaykitsrc_state_new(RcReplayKitSrc *self);
/* A string property's new value (NULL reads as ""): TRUE to store it, FALSE when its grammar
 * refuses it (the property keeps its value, a warning says why, and opening fails). */
gboolean rc_replaykitsrc_accept_string(RcReplayKitSrc *self, const gchar *property, const gchar *text);
/* NULL -> READY: FALSE, after posting the reason, while a refused string value stands. */
gboolean rc_replaykitsrc_open(GstElement *self);
/* READY -> PAUSED: builds the broadcast from the settings; posts an error and returns FALSE if it cannot. */
gboolean rc_replaykitsrc_start(GstElement *self);
gboolean rc_replaykitsrc_is_live(GstElement *self);
/* PAUSED -> READY, after the tasks stopped: drops what start built. */
void rc_replaykitsrc_stop(GstElement *self);
/* Pads deactivating (TRUE) or activating; PAUSED -> PLAYING (TRUE) and back: both end waits. */
void rc_replaykitsrc_set_flushing(RcReplayKitSrc *self, gboolean flushing);
void rc_replaykitsrc_set_playing(GstElement *self, gboolean playing);
/* One iteration of a stream's task; FALSE pauses the task (EOS, flushing, error). */
gboolean rc_replaykitsrc_stream_step(RcReplayKitSrc *self, RcStreamKind kind);
gboolean rc_replaykitsrc_query(RcReplayKitSrc *self, RcStreamKind kind, GstQuery *query);
/* An upstream event on `pad` (taken). */
gboolean rc_replaykitsrc_src_event(RcReplayKitSrc *self, GstPad *pad, GstEvent *event);
void rc_replaykitsrc_action(RcReplayKitSrc *self, RcBroadcastAction action);
gboolean rc_replaykitsrc_event(RcReplayKitSrc *self, const gchar *action);

#define VIDEO_CAPS "video/x-raw, format = (string) NV12, width = (int) [ 16, 4096 ], height = (int) [ 16, 4096 ], " \
  "framerate = (fraction) 0/1, max-framerate = (fraction) [ 1/1, 30/1 ], colorimetry = (string) 1:3:5:1, " \
  "interlace-mode = (string) progressive"
#define APP_CAPS "audio/x-raw, format = (string) { S16LE, S16BE }, layout = (string) interleaved, " \
  "rate = (int) [ 8000, 96000 ], channels = (int) [ 1, 2 ]"
#define MIC_CAPS "audio/x-raw, format = (string) S16LE, layout = (string) interleaved, " \
  "rate = (int) [ 8000, 96000 ], channels = (int) [ 1, 3 ]"

static GstStaticPadTemplate templates[RC_STREAM_COUNT] = {
  GST_STATIC_PAD_TEMPLATE("video", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(VIDEO_CAPS)),
  GST_STATIC_PAD_TEMPLATE("audio_app", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(APP_CAPS)),
  GST_STATIC_PAD_TEMPLATE("audio_mic", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(MIC_CAPS)),
};

enum { SIGNAL_PAUSE, SIGNAL_RESUME, SIGNAL_FINISH, SIGNAL_EVENT, SIGNAL_COUNT };
static guint signals[SIGNAL_COUNT];

/* Same names as DeviceProfile.all in Swift (a test checks); Swift looks profiles up by nick. */
static const GEnumValue device_values[] = {
  { 0, "iPhone X, iOS 12: 1125x2436, app 44.1 kHz mono S16BE in 22596-frame bursts, mic 44.1 kHz mono", "iphone-x-ios12" },
  { 1, "iPhone 11 Pro Max, iOS 17: 1242x2688, app 44.1 kHz stereo S16BE, mic 48 kHz mono", "iphone-11-ios17" },
  { 2, "iPad Pro 12.9-inch, iPadOS 17: 2048x2732, app 44.1 kHz stereo S16BE, mic 48 kHz mono", "ipad-ios17" },
  { 3, "iPhone 11 Pro Max with a 32 kHz mic (RTC vendor report)", "rtc-32k-mic" },
  { 4, "iPhone 11 Pro Max with AirPods: 24 kHz mic", "airpods-mic" },
  { 5, "iPhone 11 Pro Max recording multicam: 48 kHz 3-channel mic", "multicam-mic" },
  { 0, NULL, NULL },
};

static const GEnumValue mic_values[] = {
  { RC_MIC_ON, "Microphone on: speech-like audio", "on" },
  { RC_MIC_OFF, "Microphone off: no mic buffers at all", "off" },
  { RC_MIC_SILENCE, "Microphone muted: continuous digital silence", "silence" },
  { 0, NULL, NULL },
};

static const GEnumValue endianness_values[] = {
  { RC_ENDIANNESS_PROFILE, "As the device profile delivers it", "profile" },
  { RC_ENDIANNESS_LITTLE, "Little-endian S16LE", "little" },
  { RC_ENDIANNESS_BIG, "Big-endian S16BE", "big" },
  { 0, NULL, NULL },
};

static const GEnumValue barcode_time_values[] = {
  { RC_BARCODE_TIME_BROADCAST, "Broadcast time: ns since the broadcast started, as the buffer's timestamp counts it",
    "broadcast" },
  { RC_BARCODE_TIME_UTC, "UTC: ns since 1970 on this machine's real-time clock when the frame was captured "
    "(replaycast check-latency)", "utc" },
  { 0, NULL, NULL },
};

static const GEnumValue file_end_values[] = {
  { RC_FILE_END_LOOP, "Start the file again", "loop" },
  { RC_FILE_END_FINISH, "Finish the broadcast when the first file ends", "finish" },
  { 0, NULL, NULL },
};

static GType device_type(void) { return rc_enum_type("GstReplayKitDevice", device_values); }
static GType mic_type(void) { return rc_enum_type("GstReplayKitMic", mic_values); }
static GType endianness_type(void) { return rc_enum_type("GstReplayKitEndianness", endianness_values); }
static GType barcode_time_type(void) { return rc_enum_type("GstReplayKitBarcodeTime", barcode_time_values); }
static GType file_end_type(void) { return rc_enum_type("GstReplayKitFileEnd", file_end_values); }

#define S RcReplayKitSrcSettings
#define MUTABLE GST_PARAM_MUTABLE_READY
static const RcProperty properties[] = {
  RC_ENUM(S, device, "device", "Device", "Device profile: screen size and audio formats as that device delivers them",
      device_type, 1 /* iphone-11-ios17 */, MUTABLE),
  RC_INT(S, width, "width", "Width", "Screen width in pixels, 128 or more (0 = the profile's)", 0, 4096, 0, MUTABLE),
  RC_INT(S, height, "height", "Height", "Screen height in pixels (0 = the profile's)", 0, 4096, 0, MUTABLE),
  RC_STRING(S, activity, "activity", "Activity",
      "When the screen changes (frames flow only then): animated, static, or a repeating pattern like busy:2s,idle:3s",
      "animated", MUTABLE),
  RC_ENUM(S, mic, "mic", "Mic", "Microphone state at the start", mic_type, RC_MIC_ON, MUTABLE),
  RC_STRING(S, setup_info, "setup-info", "Setup info",
      "Setup info handed to broadcastStarted, as a GstStructure string (e.g. setup,broadcastName=example)", "", MUTABLE),
  RC_STRING(S, schedule, "schedule", "Schedule",
      "Timed broadcast events, e.g. \"5s:pause; 8s:resume; 10s:orientation=right; 12s:mic-format=24000; "
      "15s:call-start; 18s:call-end; 20s:finish\"", "", MUTABLE),
  RC_BOOLEAN(S, is_live, "is-live", "Is live",
      "Deliver in real time on the pipeline clock; false runs as fast as possible with the same timestamps", TRUE,
      MUTABLE),
  RC_INT(S, num_frames, "num-frames", "Number of frames",
      "Finish the broadcast after this many video frames (-1 = unbounded)", -1, G_MAXINT, -1, MUTABLE),
  RC_UINT64(S, duration, "duration", "Duration",
      "Finish the broadcast after this much broadcast time in nanoseconds (18446744073709551615 = unbounded)",
      0, G_MAXUINT64, GST_CLOCK_TIME_NONE, MUTABLE),
  RC_INT(S, app_rate, "app-rate", "App rate", "App audio sample rate in Hz (0 = the profile's)", 0, 96000, 0, MUTABLE),
  RC_INT(S, app_channels, "app-channels", "App channels", "App audio channels (0 = the profile's)", 0, 2, 0, MUTABLE),
  RC_ENUM(S, app_endianness, "app-endianness", "App endianness", "Byte order of the app audio samples",
      endianness_type, RC_ENDIANNESS_PROFILE, MUTABLE),
  RC_INT(S, app_frames_per_buffer, "app-frames-per-buffer", "App frames per buffer",
      "App audio frames per buffer (0 = the profile's: 22596 on iOS 12, 1024 elsewhere)", 0, 1 << 20, 0, MUTABLE),
  RC_INT(S, mic_rate, "mic-rate", "Mic rate", "Mic sample rate in Hz (0 = the profile's)", 0, 96000, 0, MUTABLE),
  RC_INT(S, mic_channels, "mic-channels", "Mic channels", "Mic channels (0 = the profile's)", 0, 3, 0, MUTABLE),
  RC_BOOLEAN(S, gap_events, "gap-events", "Gap events",
      "Announce time without buffers (pause, call, mic off) with GAP events so downstream mixers never wait; "
      "false sends nothing at all, like a device", TRUE, MUTABLE),
  RC_BOOLEAN(S, audio_after_call, "audio-after-call", "Audio after call",
      "Audio returns when a phone call ends (false: only video flows after a call, as seen on devices)", FALSE,
      MUTABLE),
  RC_BOOLEAN(S, sync_marks, "sync-marks", "Sync marks",
      "At every whole second of capture time from 1 s: a 100 ms white flash in the video and, in the app and mic "
      "audio, 100 ms of silence then a 10 ms 1 kHz click starting exactly at the mark, to measure A/V sync downstream "
      "(replaycast check-sync)", FALSE, MUTABLE),
  RC_UINT64(S, memory_limit, "memory-limit", "Memory limit",
      "End the broadcast with an error, as ReplayKit kills an upload extension over its memory limit (about 50 MB), "
      "when this process holds more private memory than this many bytes (0 = no limit)", 0, G_MAXUINT64, 0, MUTABLE),
  RC_ENUM(S, barcode_time, "barcode-time", "Barcode time",
      "The time each frame's barcode strip carries: broadcast time, or the UTC capture time a receiver on a clock "
      "synchronised with this one compares with its own to measure latency", barcode_time_type,
      RC_BARCODE_TIME_BROADCAST, MUTABLE),
  RC_STRING(S, trace, "trace", "Trace",
      "Replay a device trace (a file, one JSON object per line): the same sample buffers at the same times in the "
      "same formats, with the same lifecycle; the content is replaykitsrc's or the files' (screen-location, "
      "app-location, mic-location) (docs/replaykitsrc.md). "
      "Empty: the device profile and schedule decide", "", MUTABLE),
  RC_STRING(S, screen_location, "screen-location", "Screen video file",
      "Show this video file (any format GStreamer decodes) as the screen instead of the emulated one: NV12 at the "
      "screen size, aspect kept, a frame only when the picture changes, its rotation as the orientation; decoded "
      "while the broadcast runs, a few frames ahead. Empty: the emulated screen", "", MUTABLE),
  RC_STRING(S, app_location, "app-location", "App audio file",
      "Play this audio file (any format GStreamer decodes) as the app audio instead of the music, converted to the "
      "stream's format; decoded when the broadcast starts, up to 10 minutes. Empty: the music", "", MUTABLE),
  RC_STRING(S, mic_location, "mic-location", "Mic audio file",
      "Play this audio file as the mic audio instead of the speech, converted to the mic's format (each format the "
      "mic switches to); decoded when the broadcast starts, up to 10 minutes. Empty: the speech", "", MUTABLE),
  RC_ENUM(S, file_end, "file-end", "File end", "What happens when a screen-location, app-location or mic-location file ends",
      file_end_type, RC_FILE_END_LOOP, MUTABLE),
};
#undef S

RC_DEFINE_TYPE(GstReplayKitSrc, RcReplayKitSrc, rc_replaykitsrc, GST_TYPE_ELEMENT, properties,
    rc_replaykitsrc_state_new(self), rc_no_interfaces)
RC_SETTINGS_COPY(rc_replaykitsrc, RcReplayKitSrc, properties)
RC_SETTINGS_CLEAR(rc_replaykitsrc, RcReplayKitSrc, properties)
GST_ELEMENT_REGISTER_DEFINE(replaykitsrc, "replaykitsrc", GST_RANK_NONE, rc_replaykitsrc_get_type())

static void rc_replaykitsrc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)object;
  gboolean checked = id >= 1 && id <= G_N_ELEMENTS(properties) && properties[id - 1].kind == RC_PROPERTY_STRING;
  if (checked && !rc_replaykitsrc_accept_string(self, pspec->name, g_value_get_string(value)))
    return;
  if (!rc_properties_set(self, &self->settings, properties, G_N_ELEMENTS(properties), id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

RC_PROPERTY_GETTER(rc_replaykitsrc_, RcReplayKitSrc, settings, properties)

const gchar *rc_replaykitsrc_device_name(gint device) {
  for (const GEnumValue *v = device_values; v->value_nick; v++)
    if (v->value == device)
      return v->value_nick;
  return NULL;
}

GstEvent *rc_image_orientation_tag_event(const gchar *orientation) {
  GstTagList *tags = gst_tag_list_new(GST_TAG_IMAGE_ORIENTATION, orientation, NULL);
  return gst_event_new_tag(tags);
}

static void stream_loop(gpointer pad) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)GST_PAD_PARENT(pad);
  RcStreamKind kind = GPOINTER_TO_INT(gst_pad_get_element_private(pad));
  if (!rc_replaykitsrc_stream_step(self, kind))
    gst_pad_pause_task(pad);
}

static gboolean activate_mode(GstPad *pad, GstObject *parent, GstPadMode mode, gboolean active) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)parent;
  if (mode != GST_PAD_MODE_PUSH)
    return FALSE;
  if (active) {
    rc_replaykitsrc_set_flushing(self, FALSE);
    return gst_pad_start_task(pad, stream_loop, pad, NULL);
  }
  rc_replaykitsrc_set_flushing(self, TRUE);
  return gst_pad_stop_task(pad);
}

static gboolean src_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  RcReplayKitSrc *self = (RcReplayKitSrc *)parent;
  RcStreamKind kind = GPOINTER_TO_INT(gst_pad_get_element_private(pad));
  if (rc_replaykitsrc_query(self, kind, query))
    return TRUE;
  return gst_pad_query_default(pad, parent, query);
}

static gboolean src_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  return rc_replaykitsrc_src_event((RcReplayKitSrc *)parent, pad, event);
}

static const RcLifecycle lifecycle = {
  rc_replaykitsrc_open, rc_replaykitsrc_start, rc_replaykitsrc_stop, rc_replaykitsrc_set_playing, rc_replaykitsrc_is_live,
};

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  return rc_lifecycle_change_state(element, transition, GST_ELEMENT_CLASS(rc_replaykitsrc_parent_class), &lifecycle);
}

/* An application ending the pipeline sends EOS to it; a source with several pads would
 * otherwise get it on one pad only. EOS finishes the broadcast: every pad ends. */
static gboolean send_event(GstElement *element, GstEvent *event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    rc_replaykitsrc_action((RcReplayKitSrc *)element, RC_ACTION_FINISH);
    gst_event_unref(event);
    return TRUE;
  }
  return GST_ELEMENT_CLASS(rc_replaykitsrc_parent_class)->send_event(element, event);
}

static void action_pause(RcReplayKitSrc *self) { rc_replaykitsrc_action(self, RC_ACTION_PAUSE); }
static void action_resume(RcReplayKitSrc *self) { rc_replaykitsrc_action(self, RC_ACTION_RESUME); }
static void action_finish(RcReplayKitSrc *self) { rc_replaykitsrc_action(self, RC_ACTION_FINISH); }
static gboolean action_event(RcReplayKitSrc *self, const gchar *action) {
  return action != NULL && rc_replaykitsrc_event(self, action);
}

static void rc_replaykitsrc_class_setup(RcReplayKitSrcClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);

  element_class->change_state = change_state;
  element_class->send_event = send_event;

  signals[SIGNAL_PAUSE] = g_signal_new_class_handler("pause", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_pause), NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_RESUME] = g_signal_new_class_handler("resume", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_resume), NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_FINISH] = g_signal_new_class_handler("finish", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_finish), NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_EVENT] = g_signal_new_class_handler("event", G_TYPE_FROM_CLASS(klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION, G_CALLBACK(action_event), NULL, NULL, NULL, G_TYPE_BOOLEAN, 1, G_TYPE_STRING);

  for (int k = 0; k < RC_STREAM_COUNT; k++)
    gst_element_class_add_static_pad_template(element_class, &templates[k]);
  gst_element_class_set_static_metadata(element_class, "ReplayKit broadcast source", "Source/Video/Audio",
      "Emulates an iOS ReplayKit broadcast upload extension: NV12 full-range screen video, app and mic audio "
      "as devices deliver them, and the broadcast lifecycle",
      "ReplayCast developers");
}

static void rc_replaykitsrc_instance_setup(RcReplayKitSrc *self) {
  for (int k = 0; k < RC_STREAM_COUNT; k++) {
    GstPad *pad = gst_pad_new_from_static_template(&templates[k], templates[k].name_template);
    gst_pad_set_element_private(pad, GINT_TO_POINTER(k));
    gst_pad_set_activatemode_function(pad, activate_mode);
    gst_pad_set_query_function(pad, src_query);
    gst_pad_set_event_function(pad, src_event);
    gst_pad_use_fixed_caps(pad);
    gst_element_add_pad(GST_ELEMENT(self), pad);
    self->pads[k] = pad;
  }
  GST_OBJECT_FLAG_SET(self, GST_ELEMENT_FLAG_SOURCE);
}
