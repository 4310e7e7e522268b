/* dualmixer: GType, pads, properties and trampolines. The mixing engine is Swift
 * (DualMixer.swift); all aggregate and event work forwards to it. */
#include "include/rc_dualmixer.h"
#include "swift_exports.h"

#define SINK_CAPS "audio/x-raw, format = (string) { S16LE, S16BE, F32LE }, layout = (string) interleaved, " \
  "rate = (int) [ 8000, 96000 ], channels = (int) [ 1, 3 ]"
#define SRC_CAPS "audio/x-raw, format = (string) { S16LE, F32LE }, layout = (string) interleaved, " \
  "rate = (int) 48000, channels = (int) 2, channel-mask = (bitmask) 0x3"

static GstStaticPadTemplate app_template =
    GST_STATIC_PAD_TEMPLATE("app", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(SINK_CAPS));
static GstStaticPadTemplate mic_template =
    GST_STATIC_PAD_TEMPLATE("mic", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(SINK_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(SRC_CAPS));

/* ---- pad ---- */

typedef RcDualMixerPad GstDualMixerPad;
typedef RcDualMixerPadClass GstDualMixerPadClass;
G_DEFINE_TYPE(GstDualMixerPad, rc_dualmixer_pad, GST_TYPE_AGGREGATOR_PAD)

static const RcProperty pad_properties[] = {
  RC_DOUBLE(RcDualMixerPadSettings, volume, "volume", "Volume", "Volume of this pad", 0.0, 10.0, 1.0,
      GST_PARAM_CONTROLLABLE),
  RC_BOOLEAN(RcDualMixerPadSettings, mute, "mute", "Mute", "Mute this pad", FALSE, GST_PARAM_CONTROLLABLE),
};

RC_PROPERTY_ACCESSORS(pad_, RcDualMixerPad, settings, pad_properties)

void rc_dualmixer_pad_copy_settings(RcDualMixerPad *pad, RcDualMixerPadSettings *out) {
  rc_properties_copy(pad, &pad->settings, sizeof *out, pad_properties, G_N_ELEMENTS(pad_properties), out);
}

static void end_unlinked_pads(RcDualMixer *self, guint32 seek);

/* The aggregator's own chain function, which queues the buffer for the aggregator thread. */
static GstPadChainFunction aggregator_chain;

/* The aggregator thread waits until every input has a buffer queued, and pops a token
 * only when that input is not ahead; an input held back for room keeps one queued
 * (queued again if popped meanwhile), or the mix would wait for the input while the input
 * waits for the mix. Streaming thread of the pad, in chain. */
GstFlowReturn rc_dualmixer_queue_token(RcDualMixerPad *pad) {
  if (gst_aggregator_pad_has_buffer(GST_AGGREGATOR_PAD(pad))) return GST_FLOW_OK;
  return aggregator_chain(GST_PAD(pad), GST_OBJECT_PARENT(pad), gst_buffer_ref(pad->token));
}

/* The input is converted, resampled and placed on the upstream thread (DualMixer.chain). */
static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  return rc_dualmixer_chain((RcDualMixer *)parent, (RcDualMixerPad *)pad, buffer);
}

guint64 rc_dualmixer_progress(RcDualMixer *self) {
  g_mutex_lock(&self->progress_lock);
  guint64 progress = self->progress;
  g_mutex_unlock(&self->progress_lock);
  return progress;
}

/* with progress_lock */
static gboolean pad_stopped(RcDualMixer *self, gint pad) {
  return self->stopping || self->pads[pad]->flushing;
}

gboolean rc_dualmixer_wait_progress(RcDualMixer *self, gint pad, guint64 seen) {
  if (self->pads[pad]->token) rc_dualmixer_queue_token(self->pads[pad]);
  g_mutex_lock(&self->progress_lock);
  while (self->progress == seen && !pad_stopped(self, pad))
    g_cond_wait(&self->progress_cond, &self->progress_lock);
  gboolean ok = !pad_stopped(self, pad);
  g_mutex_unlock(&self->progress_lock);
  return ok;
}

gboolean rc_dualmixer_wait_restarted(RcDualMixer *self, gint pad) {
  g_mutex_lock(&self->progress_lock);
  while (self->restarting && !pad_stopped(self, pad))
    g_cond_wait(&self->progress_cond, &self->progress_lock);
  gboolean ok = !pad_stopped(self, pad);
  g_mutex_unlock(&self->progress_lock);
  return ok;
}

void rc_dualmixer_signal_progress(RcDualMixer *self) {
  g_mutex_lock(&self->progress_lock);
  self->progress++;
  g_cond_broadcast(&self->progress_cond);
  g_mutex_unlock(&self->progress_lock);
}

/* Sets `*flag` (a field under progress_lock) and wakes every waiting input. */
static void set_and_wake(RcDualMixer *self, gboolean *flag, gboolean value) {
  g_mutex_lock(&self->progress_lock);
  *flag = value;
  g_cond_broadcast(&self->progress_cond);
  g_mutex_unlock(&self->progress_lock);
}

static void pad_constructed(GObject *object) {
  G_OBJECT_CLASS(rc_dualmixer_pad_parent_class)->constructed(object);
  GstPad *pad = GST_PAD(object);
  if (GST_PAD_IS_SINK(pad)) {
    aggregator_chain = GST_PAD_CHAINFUNC(pad);
    gst_pad_set_chain_function(pad, chain);
  }
}

static void rc_dualmixer_pad_class_init(RcDualMixerPadClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  gobject_class->constructed = pad_constructed;
  gobject_class->set_property = pad_set_property;
  gobject_class->get_property = pad_get_property;
  rc_properties_install(gobject_class, pad_properties, G_N_ELEMENTS(pad_properties));
}

static void rc_dualmixer_pad_init(RcDualMixerPad *pad) {
  gst_segment_init(&pad->input_segment, GST_FORMAT_TIME);
  rc_properties_init(&pad->settings, pad_properties, G_N_ELEMENTS(pad_properties));
}

/* ---- element ---- */

static const GEnumValue mix_mode_values[] = {
  { RC_MIX_SUM, "Sum, with a soft limiter above -1 dBFS so the sum never clips harshly or wraps", "sum" },
  { RC_MIX_AVERAGE, "Average of the inputs present: (app + mic) / 2", "average" },
  { 0, NULL, NULL },
};

static GType mix_mode_type(void) { return rc_enum_type("GstDualMixerMode", mix_mode_values); }

#define MUTABLE GST_PARAM_MUTABLE_PLAYING
static const RcProperty properties[] = {
  RC_ENUM(RcDualMixerSettings, mix_mode, "mix-mode", "Mix mode", "How app and mic audio combine", mix_mode_type,
      RC_MIX_SUM, MUTABLE),
  RC_BOOLEAN(RcDualMixerSettings, post_levels, "post-levels", "Post levels",
      "Post a 'dualmixer-levels' element message per level interval: rms and peak of app, mic and mix, "
      "and whether each input is active, silent or absent", FALSE, MUTABLE),
  RC_UINT64(RcDualMixerSettings, output_buffer_duration, "output-buffer-duration", "Output buffer duration",
      "Duration of each output buffer in nanoseconds", GST_MSECOND, GST_SECOND, 10 * GST_MSECOND,
      GST_PARAM_MUTABLE_READY),
  RC_UINT64(RcDualMixerSettings, level_interval, "level-interval", "Level interval",
      "Interval of time between 'dualmixer-levels' messages in nanoseconds", GST_MSECOND, G_MAXUINT64,
      100 * GST_MSECOND, MUTABLE),
};

/* GstChildProxy makes the pads' properties settable as app::volume=0.5, as with audiomixer. */
static GObject *child_by_name(GstChildProxy *proxy, const gchar *name) {
  GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(proxy), name);
  return pad ? G_OBJECT(pad) : NULL;
}

static GObject *child_by_index(GstChildProxy *proxy, guint index) {
  RcDualMixer *self = (RcDualMixer *)proxy;
  return index < 2 ? G_OBJECT(gst_object_ref(self->pads[index])) : NULL;
}

static guint children_count(GstChildProxy *proxy) { return 2; }

static void child_proxy_init(gpointer g_iface, gpointer iface_data) {
  GstChildProxyInterface *iface = g_iface;
  iface->get_child_by_name = child_by_name;
  iface->get_child_by_index = child_by_index;
  iface->get_children_count = children_count;
}

typedef RcDualMixer GstDualMixer;
typedef RcDualMixerClass GstDualMixerClass;
G_DEFINE_TYPE_WITH_CODE(GstDualMixer, rc_dualmixer, GST_TYPE_AGGREGATOR,
    G_IMPLEMENT_INTERFACE(GST_TYPE_CHILD_PROXY, child_proxy_init))

void rc_dualmixer_copy_settings(RcDualMixer *self, RcDualMixerSettings *out) {
  rc_properties_copy(self, &self->settings, sizeof *out, properties, G_N_ELEMENTS(properties), out);
}

RC_PROPERTY_ACCESSORS(, RcDualMixer, settings, properties)

GstSegment *rc_aggregator_src_segment(GstAggregator *agg) {
  return &GST_AGGREGATOR_PAD(agg->srcpad)->segment;
}

GstAggregatorStartTimeSelection rc_aggregator_start_time_selection(GstAggregator *agg, GstClockTime *start_time) {
  GstAggregatorStartTimeSelection selection;
  guint64 start;
  g_object_get(agg, "start-time-selection", &selection, "start-time", &start, NULL);
  *start_time = start;
  return selection;
}

void rc_aggregator_set_src_position(GstAggregator *agg, GstClockTime position) {
  GST_OBJECT_LOCK(agg);
  GST_AGGREGATOR_PAD(agg->srcpad)->segment.position = position;
  GST_OBJECT_UNLOCK(agg);
}

static void finalize(GObject *object) {
  RcDualMixer *self = (RcDualMixer *)object;
  g_mutex_clear(&self->progress_lock);
  g_cond_clear(&self->progress_cond);
  rc_dualmixer_state_free(self->state);
  self->state = NULL;
  G_OBJECT_CLASS(rc_dualmixer_parent_class)->finalize(object);
}

static GstFlowReturn aggregate(GstAggregator *agg, gboolean timeout) {
  return rc_dualmixer_aggregate((RcDualMixer *)agg, timeout);
}

static gboolean start(GstAggregator *agg) { return rc_dualmixer_start((RcDualMixer *)agg); }
static GstFlowReturn flush(GstAggregator *agg) {
  RcDualMixer *self = (RcDualMixer *)agg;
  rc_dualmixer_flush(self);
  set_and_wake(self, &self->restarting, FALSE);
  return GST_FLOW_OK;
}

/* The base class forwards a seek upstream, where the sources flush and start again, each in
 * its own time; it flushes the mixer (flush above) once every pad is done flushing. */
static gboolean src_event(GstAggregator *agg, GstEvent *event) {
  RcDualMixer *self = (RcDualMixer *)agg;
  gboolean flushing_seek = FALSE;
  guint32 seqnum = gst_event_get_seqnum(event);
  if (GST_EVENT_TYPE(event) == GST_EVENT_SEEK) {
    GstSeekFlags flags;
    gst_event_parse_seek(event, NULL, NULL, &flags, NULL, NULL, NULL, NULL);
    flushing_seek = (flags & GST_SEEK_FLAG_FLUSH) != 0;
  }
  if (flushing_seek)
    set_and_wake(self, &self->restarting, TRUE);
  gboolean handled = GST_AGGREGATOR_CLASS(rc_dualmixer_parent_class)->src_event(agg, event);
  if (flushing_seek) {
    if (handled)
      end_unlinked_pads(self, seqnum);
    /* Not every pad flushed (a source refused the seek): the base class will not flush the
     * mixer, so nothing must wait for it. */
    set_and_wake(self, &self->restarting, FALSE);
  }
  return handled;
}
static gboolean stop(GstAggregator *agg) { return rc_dualmixer_stop((RcDualMixer *)agg); }

static GstCaps *fixate_src_caps(GstAggregator *agg, GstCaps *caps) {
  /* S16LE unless downstream wants F32LE only: the first format the caps list */
  caps = gst_caps_truncate(gst_caps_make_writable(caps));
  return gst_caps_fixate(caps);
}

static gboolean negotiated_src_caps(GstAggregator *agg, GstCaps *caps) {
  return rc_dualmixer_set_output_caps((RcDualMixer *)agg, caps);
}

/* Caps and gaps are taken on the upstream thread too, in order with that pad's buffers. */
static GstFlowReturn sink_event_pre_queue(GstAggregator *agg, GstAggregatorPad *pad, GstEvent *event) {
  gint index = ((RcDualMixerPad *)pad)->index;
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    if (!rc_dualmixer_set_input_caps((RcDualMixer *)agg, index, caps)) {
      gst_event_unref(event);
      return GST_FLOW_NOT_NEGOTIATED;
    }
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_START) {
    set_and_wake((RcDualMixer *)agg, &((RcDualMixerPad *)pad)->flushing, TRUE);
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
    set_and_wake((RcDualMixer *)agg, &((RcDualMixerPad *)pad)->flushing, FALSE);
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
    gst_event_copy_segment(event, &((RcDualMixerPad *)pad)->input_segment);
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_GAP && rc_dualmixer_wait_restarted((RcDualMixer *)agg, index)) {
    rc_dualmixer_input_gap((RcDualMixer *)agg, index, event);
  }
  return GST_AGGREGATOR_CLASS(rc_dualmixer_parent_class)->sink_event_pre_queue(agg, pad, event);
}

static gboolean sink_event(GstAggregator *agg, GstAggregatorPad *pad, GstEvent *event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
    /* already taken in sink_event_pre_queue */
    gst_event_unref(event);
    return TRUE;
  }
  return GST_AGGREGATOR_CLASS(rc_dualmixer_parent_class)->sink_event(agg, pad, event);
}

static gboolean sink_query(GstAggregator *agg, GstAggregatorPad *pad, GstQuery *query) {
  return rc_sink_caps_query(GST_ELEMENT(agg), GST_PAD(pad), query, NULL)
      || GST_AGGREGATOR_CLASS(rc_dualmixer_parent_class)->sink_query(agg, pad, query);
}

/* Tells each unlinked sink pad that its stream has ended, as its upstream would; after the
 * flushing seek numbered `seek` (0: none), first that it flushed for it, since the seek
 * could not reach its upstream and the base class waits for every pad's FLUSH_STOP. */
static void end_unlinked_pads(RcDualMixer *self, guint32 seek) {
  for (int i = 0; i < 2; i++) {
    GstPad *pad = GST_PAD(self->pads[i]);
    if (gst_pad_is_linked(pad))
      continue;
    if (seek) {
      GstEvent *start = gst_event_new_flush_start(), *stop = gst_event_new_flush_stop(TRUE);
      gst_event_set_seqnum(start, seek);
      gst_event_set_seqnum(stop, seek);
      gst_pad_send_event(pad, start);
      gst_pad_send_event(pad, stop);
    } else {
      gst_pad_send_event(pad, gst_event_new_stream_start("dualmixer-unlinked"));
    }
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    gst_pad_send_event(pad, gst_event_new_segment(&segment));
    gst_pad_send_event(pad, gst_event_new_eos());
  }
}

/* A sink pad nobody links never delivers data nor EOS, and a non-live aggregator would wait
 * for it forever: at the start such a pad is told it has ended (the mixer then carries on
 * without it; see docs/dualmixer.md). */
static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  RcDualMixer *mixer = (RcDualMixer *)element;
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_and_wake(mixer, &mixer->stopping, TRUE); /* an upstream thread may wait in chain */
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    set_and_wake(mixer, &mixer->restarting, FALSE);
    set_and_wake(mixer, &mixer->stopping, FALSE);
  }
  GstStateChangeReturn ret = GST_ELEMENT_CLASS(rc_dualmixer_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED && ret != GST_STATE_CHANGE_FAILURE)
    end_unlinked_pads(mixer, 0);
  return ret;
}

static void rc_dualmixer_class_init(RcDualMixerClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS(klass);

  gobject_class->set_property = set_property;
  gobject_class->get_property = get_property;
  gobject_class->finalize = finalize;
  element_class->change_state = change_state;
  rc_properties_install(gobject_class, properties, G_N_ELEMENTS(properties));

  gst_element_class_add_static_pad_template_with_gtype(element_class, &app_template, rc_dualmixer_pad_get_type());
  gst_element_class_add_static_pad_template_with_gtype(element_class, &mic_template, rc_dualmixer_pad_get_type());
  gst_element_class_add_static_pad_template_with_gtype(element_class, &src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_set_static_metadata(element_class, "Dual mixer", "Filter/Audio/Mixer",
      "Mixes app and mic audio as ReplayKit delivers them (any rate, 1-3 channels, S16LE/S16BE/F32LE, bursty "
      "or absent) into one 48 kHz stereo stream, aligned by running time",
      "ReplayCast developers");

  agg_class->aggregate = aggregate;
  agg_class->start = start;
  agg_class->stop = stop;
  agg_class->src_event = src_event;
  agg_class->flush = flush;
  agg_class->fixate_src_caps = fixate_src_caps;
  agg_class->negotiated_src_caps = negotiated_src_caps;
  agg_class->sink_event = sink_event;
  agg_class->sink_event_pre_queue = sink_event_pre_queue;
  agg_class->sink_query = sink_query;
  agg_class->get_next_time = gst_aggregator_simple_get_next_time;
}

static void rc_dualmixer_init(RcDualMixer *self) {
  g_mutex_init(&self->progress_lock);
  g_cond_init(&self->progress_cond);
  GstElementClass *klass = GST_ELEMENT_GET_CLASS(self);
  const char *names[2] = { "app", "mic" };
  for (int i = 0; i < 2; i++) {
    GstPadTemplate *templ = gst_element_class_get_pad_template(klass, names[i]);
    RcDualMixerPad *pad = g_object_new(rc_dualmixer_pad_get_type(), "name", names[i], "direction", GST_PAD_SINK,
        "template", templ, NULL);
    pad->index = i;
    self->pads[i] = pad;
    gst_element_add_pad(GST_ELEMENT(self), GST_PAD(pad));
  }
  rc_properties_init(&self->settings, properties, G_N_ELEMENTS(properties));
  self->state = rc_dualmixer_state_new();
}
