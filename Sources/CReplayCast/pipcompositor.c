/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pipcompositor: GTypes of the element and of its sink pads, pad templates, child proxy and
 * vfunc trampolines. The properties (PipCompositorProperties.swift), the decisions (caps,
 * timeouts, what to draw and into which buffer) and the drawing are Swift
 * (Sources/ReplayCast/PipCompositor/). */
#include "include/rc_pipcompositor.h"

/* Implemented in Swift (rc_element.h says how the signatures match). */
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

#define RC_PIP_CAPS \
  "video/x-raw, format = (string) { NV12, I420, BGRA, RGBA }, " \
  "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], framerate = (fraction) [ 0/1, MAX ]"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink_%u", GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS(RC_PIP_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(RC_PIP_CAPS));

/* ------------------------------------------------------------------------------------ */
/* Sink pad: GstPipCompositorPad                                                        */

RC_DEFINE_TYPE(GstPipCompositorPad, RcPipCompositorPad, rc_pipcompositor_pad, GST_TYPE_VIDEO_AGGREGATOR_PAD,
    rc_pipcompositor_pad_state_new(), rc_no_interfaces)

/* The base class maps every pad's buffer for reading before aggregate_frames. The main
 * pad's buffer may have become (the memory of) the output, which is mapped for writing:
 * the element maps the main picture itself, so its pad is skipped here. */
static gboolean pad_prepare_frame(GstVideoAggregatorPad *vpad, GstVideoAggregator *vagg, GstBuffer *buffer,
    GstVideoFrame *prepared) {
  if (((RcPipCompositorPad *)vpad)->skip_prepare)
    return TRUE;
  return GST_VIDEO_AGGREGATOR_PAD_CLASS(rc_pipcompositor_pad_parent_class)->prepare_frame(vpad, vagg, buffer, prepared);
}

static void rc_pipcompositor_pad_class_setup(RcPipCompositorPadClass *klass) {
  GST_VIDEO_AGGREGATOR_PAD_CLASS(klass)->prepare_frame = pad_prepare_frame;
}

static void rc_pipcompositor_pad_instance_setup(RcPipCompositorPad *pad) {}

/* ------------------------------------------------------------------------------------ */
/* Element: GstPipCompositor                                                             */

RC_DEFINE_TYPE(GstPipCompositor, RcPipCompositor, rc_pipcompositor, GST_TYPE_VIDEO_AGGREGATOR,
    rc_pipcompositor_state_new(), rc_sink_pads_child_proxy)
GST_ELEMENT_REGISTER_DEFINE(pipcompositor, "pipcompositor", GST_RANK_NONE, rc_pipcompositor_get_type())

GstFlowReturn rc_pipcompositor_allocate_output(RcPipCompositor *self, GstBuffer **outbuf) {
  return GST_VIDEO_AGGREGATOR_CLASS(rc_pipcompositor_parent_class)->create_output_buffer(GST_VIDEO_AGGREGATOR(self), outbuf);
}

GstFlowReturn rc_pipcompositor_parent_aggregate(RcPipCompositor *self, gboolean timeout) {
  return GST_AGGREGATOR_CLASS(rc_pipcompositor_parent_class)->aggregate(GST_AGGREGATOR(self), timeout);
}

static gboolean start(GstAggregator *agg) {
  rc_pipcompositor_start((RcPipCompositor *)agg);
  return GST_AGGREGATOR_CLASS(rc_pipcompositor_parent_class)->start(agg);
}

static gboolean stop(GstAggregator *agg) {
  rc_pipcompositor_stop((RcPipCompositor *)agg);
  return GST_AGGREGATOR_CLASS(rc_pipcompositor_parent_class)->stop(agg);
}

static gboolean sink_event(GstAggregator *agg, GstAggregatorPad *pad, GstEvent *event) {
  if (GST_EVENT_TYPE(event) == GST_EVENT_TAG)
    rc_pipcompositor_tag((RcPipCompositor *)agg, (RcPipCompositorPad *)pad, event);
  return GST_AGGREGATOR_CLASS(rc_pipcompositor_parent_class)->sink_event(agg, pad, event);
}

static gboolean sink_query(GstAggregator *agg, GstAggregatorPad *pad, GstQuery *query) {
  return rc_sink_caps_query(GST_ELEMENT(agg), GST_PAD(pad), query, rc_pipcompositor_sink_caps)
      || GST_AGGREGATOR_CLASS(rc_pipcompositor_parent_class)->sink_query(agg, pad, query);
}

GstCaps *rc_pipcompositor_template_caps(void) { return gst_static_pad_template_get_caps(&src_template); }

/* Child proxy, so "name.sink_1::xpos=…" works in launch lines (the parser sets properties of
 * pads that appear later through child-added). */
static GstPad *request_new_pad(GstElement *element, GstPadTemplate *templ, const gchar *name, const GstCaps *caps) {
  GstPad *pad = GST_ELEMENT_CLASS(rc_pipcompositor_parent_class)->request_new_pad(element, templ, name, caps);
  if (pad)
    gst_child_proxy_child_added(GST_CHILD_PROXY(element), G_OBJECT(pad), GST_OBJECT_NAME(pad));
  return pad;
}

static void release_pad(GstElement *element, GstPad *pad) {
  gst_child_proxy_child_removed(GST_CHILD_PROXY(element), G_OBJECT(pad), GST_OBJECT_NAME(pad));
  GST_ELEMENT_CLASS(rc_pipcompositor_parent_class)->release_pad(element, pad);
}

static void rc_pipcompositor_class_setup(RcPipCompositorClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS(klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS(klass);

  gst_element_class_add_static_pad_template_with_gtype(element_class, &sink_template, rc_pipcompositor_pad_get_type());
  gst_element_class_add_static_pad_template_with_gtype(element_class, &src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_set_static_metadata(element_class, "Picture-in-picture compositor", "Filter/Editor/Video/Compositor",
      "Draws small pictures over a main picture (the lowest zorder) in place, NV12 native: the cost follows the "
      "small pictures, the main picture is neither copied nor converted when it can be avoided",
      "ReplayCast developers");

  element_class->request_new_pad = request_new_pad;
  element_class->release_pad = release_pad;
  agg_class->aggregate = rc_pipcompositor_aggregate;
  agg_class->start = start;
  agg_class->stop = stop;
  agg_class->sink_event = sink_event;
  agg_class->sink_query = sink_query;
  agg_class->fixate_src_caps = rc_pipcompositor_fixate_src_caps;
  vagg_class->find_best_format = rc_pipcompositor_find_best_format;
  vagg_class->create_output_buffer = rc_pipcompositor_create_output_buffer;
  vagg_class->aggregate_frames = rc_pipcompositor_aggregate_frames;

  gst_type_mark_as_plugin_api(rc_pipcompositor_pad_get_type(), 0);
}

static void rc_pipcompositor_instance_setup(RcPipCompositor *self) {
  gst_aggregator_set_ignore_inactive_pads(GST_AGGREGATOR(self), TRUE);
}
