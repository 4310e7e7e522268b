/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dualmixer: GTypes, pads and trampolines. The properties (DualMixerProperties.swift), the
 * mixing engine, its flow control and its event and state-change policy are Swift
 * (Sources/ReplayCast/DualMixer/). */
#include "include/rc_dualmixer.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
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

RC_DEFINE_TYPE(GstDualMixerPad, RcDualMixerPad, rc_dualmixer_pad, GST_TYPE_AGGREGATOR_PAD, NULL, rc_no_interfaces)

GstFlowReturn rc_dualmixer_aggregator_chain(RcDualMixerPad *pad, GstBuffer *buffer) {
  return pad->aggregator_chain(GST_PAD(pad), GST_OBJECT_PARENT(pad), buffer);
}

/* The input is converted, resampled and placed on the upstream thread (DualMixer.chain). */
static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  return rc_dualmixer_chain((RcDualMixer *)parent, (RcDualMixerPad *)pad, buffer);
}

static void pad_constructed(GObject *object) {
  G_OBJECT_CLASS(rc_dualmixer_pad_parent_class)->constructed(object);
  GstPad *pad = GST_PAD(object);
  /* Kept per pad: one static for every instance was written by each pad made while other
   * dualmixers' inputs read it on their streaming threads. */
  if (GST_PAD_IS_SINK(pad)) {
    ((RcDualMixerPad *)pad)->aggregator_chain = GST_PAD_CHAINFUNC(pad);
    gst_pad_set_chain_function(pad, chain);
  }
}

static void rc_dualmixer_pad_class_setup(RcDualMixerPadClass *klass) {
  G_OBJECT_CLASS(klass)->constructed = pad_constructed;
}

static void rc_dualmixer_pad_instance_setup(RcDualMixerPad *pad) {}

/* ---- element ---- */

RC_DEFINE_TYPE(GstDualMixer, RcDualMixer, rc_dualmixer, GST_TYPE_AGGREGATOR, rc_dualmixer_state_new(),
    rc_sink_pads_child_proxy)
GST_ELEMENT_REGISTER_DEFINE(dualmixer, "dualmixer", GST_RANK_NONE, rc_dualmixer_get_type())

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

/* The base class's handlers, which the Swift overrides call around their own work. */
GstFlowReturn rc_dualmixer_parent_sink_event_pre_queue(RcDualMixer *self, RcDualMixerPad *pad, GstEvent *event) {
  return GST_AGGREGATOR_CLASS(rc_dualmixer_parent_class)->sink_event_pre_queue(GST_AGGREGATOR(self),
      GST_AGGREGATOR_PAD(pad), event);
}

gboolean rc_dualmixer_parent_src_event(RcDualMixer *self, GstEvent *event) {
  return GST_AGGREGATOR_CLASS(rc_dualmixer_parent_class)->src_event(GST_AGGREGATOR(self), event);
}

GstStateChangeReturn rc_dualmixer_parent_change_state(RcDualMixer *self, GstStateChange transition) {
  return GST_ELEMENT_CLASS(rc_dualmixer_parent_class)->change_state(GST_ELEMENT(self), transition);
}

static void rc_dualmixer_class_setup(RcDualMixerClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS(klass);

  element_class->change_state = rc_dualmixer_change_state;
  gst_element_class_add_static_pad_template_with_gtype(element_class, &app_template, rc_dualmixer_pad_get_type());
  gst_element_class_add_static_pad_template_with_gtype(element_class, &mic_template, rc_dualmixer_pad_get_type());
  gst_element_class_add_static_pad_template_with_gtype(element_class, &src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_set_static_metadata(element_class, "Dual mixer", "Filter/Audio/Mixer",
      "Mixes app and mic audio as ReplayKit delivers them (any rate, 1-3 channels, S16LE/S16BE/F32LE, bursty "
      "or absent) into one 48 kHz stereo stream, aligned by running time",
      "ReplayCast developers");

  agg_class->aggregate = rc_dualmixer_aggregate;
  agg_class->start = rc_dualmixer_start;
  agg_class->stop = rc_dualmixer_stop;
  agg_class->src_event = rc_dualmixer_src_event;
  agg_class->flush = rc_dualmixer_flush;
  agg_class->fixate_src_caps = rc_dualmixer_fixate_src_caps;
  agg_class->negotiated_src_caps = rc_dualmixer_set_output_caps;
  agg_class->sink_event = sink_event;
  agg_class->sink_event_pre_queue = rc_dualmixer_sink_event_pre_queue;
  agg_class->sink_query = sink_query;
  agg_class->get_next_time = gst_aggregator_simple_get_next_time;
}

static void rc_dualmixer_instance_setup(RcDualMixer *self) {
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
}
