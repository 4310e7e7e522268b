/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_RTMPRECONNECTSINK_H
#define RC_RTMPRECONNECTSINK_H

#include "rc_element.h"

/* The two elementary streams a publish carries (in FLV or MPEG-TS), in request pad order. */
typedef enum {
  RC_PUBLISH_VIDEO = 0,
  RC_PUBLISH_AUDIO = 1,
  RC_PUBLISH_STREAM_COUNT = 2,
} RcPublishStream;

/* What happens to data that arrives while there is no connection. */
typedef enum {
  RC_WHILE_DISCONNECTED_DROP = 0,
  RC_WHILE_DISCONNECTED_KEEP = 1,
} RcWhileDisconnected;

/* The connection, as the read-only `connection` property reports it. */
typedef enum {
  RC_PUBLISH_STOPPED = 0,    /* not streaming (NULL/READY) */
  RC_PUBLISH_CONNECTING = 1, /* an attempt is under way */
  RC_PUBLISH_CONNECTED = 2,  /* the server accepted the stream */
  RC_PUBLISH_WAITING = 3,    /* lost; waiting out the backoff before the next attempt */
  RC_PUBLISH_FAILED = 4,     /* refused, or out of retries: an error was posted */
} RcPublishConnection;

/* Property values under the object lock; Swift takes a copy when it starts an attempt and
 * once per buffer. `connection` and `reconnections` are read-only: Swift publishes them. */
typedef struct {
  gchar *location;
  gint retries;                         /* after a loss; -1: for ever */
  gint connect_retries;                 /* before the first connection; -1: for ever */
  guint64 retry_delay, retry_max_delay; /* ns */
  gdouble backoff_factor;
  RcWhileDisconnected while_disconnected;
  guint64 buffer_duration; /* ns kept with while-disconnected=keep */
  gboolean adaptive_bitrate;
  guint min_bitrate; /* kbit/s */
  RcPublishConnection connection;
  guint reconnections;
} RcRtmpReconnectSinkSettings;

typedef struct {
  GstElement parent;
  /* The request pads (NULL until requested) and, for each, the unparented source pad that
   * feeds the current connection's muxer. Pads are requested and released only in NULL or
   * READY (an FLV header names its streams once), under the object lock; GstElement's dispose
   * releases them, and each out pad with its request pad. */
  GstPad *sinkpads[RC_PUBLISH_STREAM_COUNT];
  GstPad *outpads[RC_PUBLISH_STREAM_COUNT];
  RcRtmpReconnectSinkSettings settings;
  void *state; /* Swift RtmpReconnectSink, retained; instance init to finalize */
} RcRtmpReconnectSink;

RC_CLASS_STRUCT(RcRtmpReconnectSink, GstElementClass);

GType rc_rtmpreconnectsink_get_type(void);

#endif
