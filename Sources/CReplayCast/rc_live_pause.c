/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A live aggregator's timeouts while the element is not PLAYING (LivePause.swift says why). */
#include "include/rc_gst.h"

RcLivePause rc_aggregator_wait_playing(GstAggregator *self) {
  GstElement *element = GST_ELEMENT(self);
  gboolean waited = FALSE;
  for (;;) {
    GST_OBJECT_LOCK(element);
    gboolean playing = GST_STATE(element) == GST_STATE_PLAYING;
    if (!playing) {
      /* The state lock's condition is broadcast on every state the element reaches. The pad
       * is not read under the element's lock: a bounded wait, then the pad on its own lock. */
      waited = TRUE;
      GST_STATE_WAIT_UNTIL(element, g_get_monotonic_time() + 10 * G_TIME_SPAN_MILLISECOND);
      playing = GST_STATE(element) == GST_STATE_PLAYING;
    }
    GST_OBJECT_UNLOCK(element);
    if (playing)
      return waited ? RC_LIVE_PAUSE_RESUMED : RC_LIVE_PAUSE_PLAYING;
    GstPad *srcpad = GST_AGGREGATOR_SRC_PAD(self);
    GST_OBJECT_LOCK(srcpad);
    gboolean flushing = GST_PAD_IS_FLUSHING(srcpad);
    GST_OBJECT_UNLOCK(srcpad);
    if (flushing)
      return RC_LIVE_PAUSE_FLUSHING;
  }
}
