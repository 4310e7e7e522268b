#ifndef RC_REPLAYKITSRC_H
#define RC_REPLAYKITSRC_H

#include "rc_gst.h"
#include "rc_properties.h"

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

/* The action signals. */
typedef enum { RC_ACTION_PAUSE, RC_ACTION_RESUME, RC_ACTION_FINISH } RcBroadcastAction;

/* Property values. 0 (or NULL) in an override means "as the device profile says". Guarded by
 * the object lock; the streaming side takes a snapshot when the broadcast starts. */
typedef struct {
  gint device;               /* index into the profile list (rc_replaykitsrc_device_names) */
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
} RcReplayKitSrcSettings;

typedef struct {
  GstElement parent;
  GstPad *pads[RC_STREAM_COUNT];
  RcReplayKitSrcSettings settings;
  /* Why the last rejected string property was rejected; starting fails while it is set. */
  gchar *rejection;

  /* Guards the fields below; the condition wakes streams waiting for PLAYING. */
  GMutex lock;
  GCond cond;
  gboolean playing;
  gboolean flushing;
  GstClockID waits[RC_STREAM_COUNT];
  gboolean woken[RC_STREAM_COUNT];

  void *state; /* Swift ReplayKitBroadcast, retained; instance init to finalize */
} RcReplayKitSrc;

typedef struct {
  GstElementClass parent_class;
} RcReplayKitSrcClass;

GType rc_replaykitsrc_get_type(void);

/* Snapshot of the settings; strings are copies the caller frees with rc_replaykitsrc_settings_clear. */
void rc_replaykitsrc_copy_settings(RcReplayKitSrc *self, RcReplayKitSrcSettings *out);
void rc_replaykitsrc_settings_clear(RcReplayKitSrcSettings *settings);

typedef enum {
  RC_WAIT_OK = 0,       /* the time has come */
  RC_WAIT_STOPPED = 1,  /* flushing or shutting down: leave the loop */
  RC_WAIT_WOKEN = 2,    /* rc_replaykitsrc_wake: something changed, decide again */
} RcWaitResult;

/* Blocks a stream until the element is PLAYING (live mode) or flushing. */
RcWaitResult rc_replaykitsrc_wait_playing(RcReplayKitSrc *self);
/* Blocks a stream until the pipeline clock reaches base time + running_time; returns
 * at once without a clock. Interrupted by flushing and by leaving PLAYING (then waits
 * for PLAYING again and retries). */
RcWaitResult rc_replaykitsrc_wait_until(RcReplayKitSrc *self, RcStreamKind kind, GstClockTime running_time);
/* Blocks a stream that has nothing to do until rc_replaykitsrc_wake or flushing. */
RcWaitResult rc_replaykitsrc_wait_woken(RcReplayKitSrc *self, RcStreamKind kind);
/* Interrupts every clock wait so the streams re-evaluate (an action signal arrived). */
void rc_replaykitsrc_wake(RcReplayKitSrc *self);
/* The nick of a device enum value ("iphone-11-ios17"). */
const gchar *rc_replaykitsrc_device_name(gint device);
/* An event carrying the image-orientation tag (e.g. "rotate-90"). */
GstEvent *rc_image_orientation_tag_event(const gchar *orientation);
/* The clock's current running time, or GST_CLOCK_TIME_NONE without a clock. */
GstClockTime rc_replaykitsrc_running_time(RcReplayKitSrc *self);

#endif
