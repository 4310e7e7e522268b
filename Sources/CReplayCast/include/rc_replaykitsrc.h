/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_REPLAYKITSRC_H
#define RC_REPLAYKITSRC_H

#include "rc_element.h"

/* The three streams a ReplayKit broadcast upload extension receives. */
typedef enum {
  RC_STREAM_VIDEO = 0,
  RC_STREAM_APP = 1,
  RC_STREAM_MIC = 2,
  RC_STREAM_COUNT = 3,
} RcStreamKind;

typedef enum {
  RC_MIC_ON = 0,
  RC_MIC_OFF = 1,
  RC_MIC_SILENCE = 2,
} RcMicMode;

typedef enum {
  RC_ENDIANNESS_PROFILE = 0,
  RC_ENDIANNESS_LITTLE = 1,
  RC_ENDIANNESS_BIG = 2,
} RcEndianness;

typedef enum { RC_BARCODE_TIME_BROADCAST = 0, RC_BARCODE_TIME_UTC = 1 } RcBarcodeTime;

typedef enum { RC_FILE_END_LOOP = 0, RC_FILE_END_FINISH = 1 } RcFileEnd;

/* The action signals. */
typedef enum { RC_ACTION_PAUSE, RC_ACTION_RESUME, RC_ACTION_FINISH } RcBroadcastAction;

/* Property values. 0 (or NULL) in an override means "as the device profile says". Guarded by
 * the object lock; the streaming side takes a snapshot when the broadcast starts. */
typedef struct {
  gint device;               /* index into the profile list (ReplayKitSource.device) */
  gint width, height;
  gchar *activity;
  RcMicMode mic;
  gchar *setup_info;
  gchar *schedule;
  gboolean is_live;
  gint num_frames;           /* -1: unbounded */
  guint64 duration;          /* ns, GST_CLOCK_TIME_NONE: unbounded */
  gint app_rate, app_channels, app_frames_per_buffer;
  RcEndianness app_endianness;
  gint mic_rate, mic_channels;
  gboolean gap_events;
  gboolean audio_after_call;
  gboolean sync_marks;
  guint64 memory_limit;      /* bytes, 0: none */
  RcBarcodeTime barcode_time;
  gchar *trace;              /* path of a trace to replay, NULL or "": none */
  gchar *screen_location;    /* a video file in place of the emulated screen, NULL or "": none */
  gchar *app_location;       /* audio files in place of the programmes, NULL or "": none */
  gchar *mic_location;
  RcFileEnd file_end;
} RcReplayKitSrcSettings;

typedef struct {
  GstElement parent;
  GstPad *pads[RC_STREAM_COUNT];
  RcReplayKitSrcSettings settings;

  void *state; /* Swift ReplayKitBroadcast, retained; instance init to finalize */
} RcReplayKitSrc;

RC_CLASS_STRUCT(RcReplayKitSrc, GstElementClass);

GType rc_replaykitsrc_get_type(void);

/* An event carrying the image-orientation tag (e.g. "rotate-90"). */
GstEvent *rc_image_orientation_tag_event(const gchar *orientation);

#endif
