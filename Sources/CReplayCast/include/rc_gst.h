/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GStreamer's cast, lock and accessor macros, GType macros and variadic constructors do
 * not import into Swift. Each helper here replaces exactly one of them and can go when
 * Swift's C importer learns to expand function-like macros. */
#ifndef RC_GST_H
#define RC_GST_H

#include <gst/gst.h>
#include <gst/base/base.h>
#include <gst/audio/audio.h>
#include <gst/video/video.h>
#include <gst/base/gstaggregator.h>

#define RC_EXPORT __attribute__((visibility("default")))

static inline GstElement *rc_element(gpointer obj) { return GST_ELEMENT(obj); }
static inline GstObject *rc_object(gpointer obj) { return GST_OBJECT(obj); }
static inline GstBin *rc_bin(gpointer obj) { return GST_BIN(obj); }
static inline GObject *rc_gobject(gpointer obj) { return G_OBJECT(obj); }
static inline GstAggregator *rc_aggregator(gpointer obj) { return GST_AGGREGATOR(obj); }
static inline GstAggregatorPad *rc_aggregator_pad(gpointer obj) { return GST_AGGREGATOR_PAD(obj); }
static inline GstPad *rc_aggregator_src_pad(gpointer agg) { return GST_AGGREGATOR_SRC_PAD(agg); }
static inline GstFlowReturn rc_aggregator_flow_need_data(void) { return GST_AGGREGATOR_FLOW_NEED_DATA; }
static inline GObjectClass *rc_object_class(gpointer obj) { return G_OBJECT_GET_CLASS(obj); }
static inline void rc_object_lock(gpointer obj) { GST_OBJECT_LOCK(obj); }
static inline void rc_object_unlock(gpointer obj) { GST_OBJECT_UNLOCK(obj); }

static inline gboolean rc_buffer_is_discont(GstBuffer *b) { return GST_BUFFER_IS_DISCONT(b); }
static inline gboolean rc_buffer_is_gap(GstBuffer *b) { return GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_GAP); }

static inline GstCaps *rc_caps_make_writable(GstCaps *c) { return gst_caps_make_writable(c); }
static inline GstEventType rc_event_type(GstEvent *e) { return GST_EVENT_TYPE(e); }
static inline GstQueryType rc_query_type(GstQuery *q) { return GST_QUERY_TYPE(q); }
static inline const gchar *rc_object_name(gpointer obj) { return GST_OBJECT_NAME(obj); }

/* A GValueArray of doubles, the type `level` uses, so apps written for level read ours
 * unchanged. In C because GValueArray is deprecated: Swift would warn at each use (the
 * other field types are set from Swift, MessageFields.swift). */
void rc_structure_set_double_array(GstStructure *s, GQuark field, const gdouble *values, guint n);

static inline GType rc_type_uint64(void) { return G_TYPE_UINT64; }
static inline GType rc_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType rc_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType rc_type_string(void) { return G_TYPE_STRING; }
static inline GType rc_type_int(void) { return G_TYPE_INT; }
static inline GType rc_type_uint(void) { return G_TYPE_UINT; }

/* GST_ELEMENT_ERROR is a macro: errors posted from Swift go through these. */
void rc_element_error_stream_format(gpointer element, const gchar *text, const gchar *debug);
void rc_element_warning_stream_format(gpointer element, const gchar *text, const gchar *debug);
void rc_element_warning_resource_settings(gpointer element, const gchar *text, const gchar *debug);
void rc_element_error_core_negotiation(gpointer element, const gchar *text, const gchar *debug);
void rc_element_error_library_settings(gpointer element, const gchar *text, const gchar *debug);
/* A resource error with a code chosen at run time (GST_ELEMENT_ERROR takes it as a token). */
void rc_element_error_resource(gpointer element, GstResourceError code, const gchar *text, const gchar *debug);
/* GST_ELEMENT_FLOW_ERROR: the standard "Internal data stream error" for a failed push. */
void rc_element_flow_error(gpointer element, GstFlowReturn flow);

/* What an aggregator's live timeout found (rc_aggregator_wait_playing): the element PLAYING;
 * not, then PLAYING after a wait; not, then its source pad flushing (stopping or seeking). */
typedef enum { RC_LIVE_PAUSE_PLAYING, RC_LIVE_PAUSE_RESUMED, RC_LIVE_PAUSE_FLUSHING } RcLivePause;
RcLivePause rc_aggregator_wait_playing(GstAggregator *self);

/* A sink pad's CAPS query answer, for rc_sink_caps_query (Negotiation.swift); `filter` may be NULL. */
typedef GstCaps *(*RcCapsAnswer)(GstElement *element, GstCaps *filter);

#endif
