/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Functions implemented in Swift with @_cdecl and called by the C type definitions.
 * The Swift signatures must match these, with one licence: where C sets a function straight
 * into a vfunc slot, it takes the base class's pointer (GstBaseTransform *, GstAggregator *…)
 * and Swift the element's own instance struct, the same object (the base is its first
 * member, and every pointer has one ABI). -Xlinker --no-undefined catches a missing one. */
#ifndef RC_SWIFT_EXPORTS_H
#define RC_SWIFT_EXPORTS_H

#include "include/CReplayCast.h"

/* Negotiation that names the element and the reason (Negotiation.swift). */
/* A sink pad's CAPS and ACCEPT_CAPS queries against its template: CAPS answered by `answer`
 * (NULL: the template, filtered), ACCEPT_CAPS with the reason posted when it fails. FALSE
 * for any other query, which is left untouched. */
gboolean rc_sink_caps_query(GstElement *element, GstPad *pad, GstQuery *query, RcCapsAnswer answer);
/* A GstBaseTransform's sink side against its sink pad's template: TRUE when a CAPS query was
 * answered (an offer that cannot fit, revealed), FALSE to let the base class answer; caps
 * refused with the reason posted (FALSE) or left to the base class (TRUE). */
gboolean rc_transform_query_answered(GstBaseTransform *trans, GstPadDirection direction, GstQuery *query);
gboolean rc_transform_accepts(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps);

/* volumemeter */
void *rc_volumemeter_state_new(void);
gboolean rc_volumemeter_start(GstBaseTransform *self);
gboolean rc_volumemeter_stop(GstBaseTransform *self);
gboolean rc_volumemeter_set_caps(GstBaseTransform *self, GstCaps *incaps, GstCaps *outcaps);
GstFlowReturn rc_volumemeter_transform_ip(GstBaseTransform *self, GstBuffer *buffer);
/* Called before the event is forwarded; EOS posts the last partial interval. */
void rc_volumemeter_sink_event(RcVolumeMeter *self, GstEvent *event);

/* replaykitsrc */
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

/* dualmixer */
void *rc_dualmixer_state_new(void);
gboolean rc_dualmixer_start(GstAggregator *self);
gboolean rc_dualmixer_stop(GstAggregator *self);
GstCaps *rc_dualmixer_fixate_src_caps(GstAggregator *self, GstCaps *caps);
gboolean rc_dualmixer_set_output_caps(GstAggregator *self, GstCaps *caps);
GstFlowReturn rc_dualmixer_flush(GstAggregator *self);
/* On the pad's upstream thread: a buffer, placed on its input's timeline there (the aggregator
 * gets it only as a token), and the wait while the input is too far ahead of the mix. */
GstFlowReturn rc_dualmixer_chain(RcDualMixer *self, RcDualMixerPad *pad, GstBuffer *buffer);
GstFlowReturn rc_dualmixer_aggregate(GstAggregator *self, gboolean timeout);
/* The overrides of these vfuncs; each calls the base class's (rc_dualmixer_parent_*). */
GstFlowReturn rc_dualmixer_sink_event_pre_queue(GstAggregator *self, GstAggregatorPad *pad, GstEvent *event);
gboolean rc_dualmixer_src_event(GstAggregator *self, GstEvent *event);
GstStateChangeReturn rc_dualmixer_change_state(GstElement *self, GstStateChange transition);

/* pipcompositor */
void *rc_pipcompositor_state_new(void);
void *rc_pipcompositor_pad_state_new(void);
/* start builds the frame state (and the wrapper pool of the in-place plan); stop drops it,
 * with the buffers kept for in-place drawing. */
void rc_pipcompositor_start(RcPipCompositor *self);
void rc_pipcompositor_stop(RcPipCompositor *self);
/* A TAG event reached the head of `pad`'s queue (aggregator thread). */
void rc_pipcompositor_tag(RcPipCompositor *self, RcPipCompositorPad *pad, GstEvent *event);
/* The output size the main picture asks for (upright); 0 when there is no main input yet. */
void rc_pipcompositor_find_best_format(GstVideoAggregator *self, GstCaps *downstream, GstVideoInfo *best, gboolean *alpha);
GstCaps *rc_pipcompositor_fixate_src_caps(GstAggregator *self, GstCaps *caps);
/* A sink pad's CAPS query answer (rc_sink_caps_query's RcCapsAnswer); `filter` may be NULL. */
GstCaps *rc_pipcompositor_sink_caps(GstElement *self, GstCaps *filter);
GstFlowReturn rc_pipcompositor_create_output_buffer(GstVideoAggregator *self, GstBuffer **outbuf);
GstFlowReturn rc_pipcompositor_aggregate_frames(GstVideoAggregator *self, GstBuffer *outbuf);
/* The base class's aggregate, except that a live timeout before the main input's first
 * buffer moves the output on by one frame instead of ending it. */
GstFlowReturn rc_pipcompositor_aggregate(GstAggregator *self, gboolean timeout);

/* rtmpreconnectsink */
void *rc_rtmpreconnectsink_state_new(void);
/* READY -> PAUSED: checks the location and starts the connection thread; FALSE (after posting
 * an error) when the element cannot start. */
gboolean rc_rtmpreconnectsink_start(GstElement *self);
/* PAUSED -> READY, after the pads stopped: ends the connection and its thread. */
void rc_rtmpreconnectsink_stop(GstElement *self);
/* PAUSED -> PLAYING (TRUE) and PLAYING -> PAUSED (FALSE): a due EOS is posted in PLAYING. */
void rc_rtmpreconnectsink_set_playing(GstElement *self, gboolean playing);
/* Take ownership of the buffer or event. */
GstFlowReturn rc_rtmpreconnectsink_chain(RcRtmpReconnectSink *self, RcRtmpStream stream, GstBuffer *buffer);
gboolean rc_rtmpreconnectsink_sink_event(RcRtmpReconnectSink *self, RcRtmpStream stream, GstEvent *event);
/* A query from inside a connection's pipeline to the element's output pad. */
gboolean rc_rtmpreconnectsink_out_query(GstQuery *query);
/* Whether a pad for `stream` may be added now; a refusal is logged with its reason. */
gboolean rc_rtmpreconnectsink_may_add_pad(RcRtmpReconnectSink *self, RcRtmpStream stream);
/* The request pad of `stream` is gone (its streaming stopped): `out` leaves the connection. */
void rc_rtmpreconnectsink_release(RcRtmpReconnectSink *self, RcRtmpStream stream, GstPad *out);

#endif
