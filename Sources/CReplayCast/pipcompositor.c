/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pipcompositor: GTypes of the element and of its sink pads, properties, pad templates,
 * child proxy, the per-frame snapshot of settings and pads taken under their locks, and
 * vfunc trampolines. The decisions (caps, timeouts, what to draw and into which buffer) and
 * the drawing happen in Swift (Sources/ReplayCast/PipCompositor/). */
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

/* Same values and texts as compositor's GstCompositorBackground, plus `color`. Our own type
 * names: compositor registers its own, and both plugins may live in one process. */
static const GEnumValue background_values[] = {
  { RC_PIP_BACKGROUND_CHECKER, "Checker pattern", "checker" },
  { RC_PIP_BACKGROUND_BLACK, "Black", "black" },
  { RC_PIP_BACKGROUND_WHITE, "White", "white" },
  { RC_PIP_BACKGROUND_TRANSPARENT, "Transparent Background to enable further compositing", "transparent" },
  { RC_PIP_BACKGROUND_COLOR, "The colour of the background-color property", "color" },
  { 0, NULL, NULL },
};

static const GEnumValue sizing_values[] = {
  { RC_PIP_SIZING_NONE,
    "None: Image is scaled to fill configured destination rectangle without padding or keeping the aspect ratio",
    "none" },
  { RC_PIP_SIZING_KEEP_ASPECT_RATIO,
    "Keep Aspect Ratio: Image is scaled to fit destination rectangle specified by GstCompositorPad:{xpos, ypos, "
    "width, height} with preserved aspect ratio. Resulting image will be centered in the destination rectangle "
    "with padding if necessary",
    "keep-aspect-ratio" },
  { 0, NULL, NULL },
};

static const GEnumValue position_values[] = {
  { RC_PIP_POSITION_CUSTOM, "At xpos, ypos", "custom" },
  { RC_PIP_POSITION_TOP_LEFT, "Top left corner, margin pixels from the edges", "top-left" },
  { RC_PIP_POSITION_TOP_RIGHT, "Top right corner, margin pixels from the edges", "top-right" },
  { RC_PIP_POSITION_BOTTOM_LEFT, "Bottom left corner, margin pixels from the edges", "bottom-left" },
  { RC_PIP_POSITION_BOTTOM_RIGHT, "Bottom right corner, margin pixels from the edges", "bottom-right" },
  { 0, NULL, NULL },
};

static GType background_type(void) { return rc_enum_type("GstPipCompositorBackground", background_values); }
static GType sizing_type(void) { return rc_enum_type("GstPipCompositorSizingPolicy", sizing_values); }
static GType position_type(void) { return rc_enum_type("GstPipCompositorPosition", position_values); }

/* ------------------------------------------------------------------------------------ */
/* Sink pad: GstPipCompositorPad                                                        */

/* compositor's names, blurbs and defaults. width and height start at -1 instead of
 * G_MININT: -1 (the default) and 0 keep compositor's meaning, other negative sizes are
 * refused. Pixel counts stop at MAX_PIXELS: far beyond any frame, small enough that sums of
 * them never overflow. */
#define MAX_PIXELS 32767
#define CONTROLLABLE GST_PARAM_CONTROLLABLE
static const RcProperty pad_properties[] = {
  RC_INT(RcPipPadSettings, xpos, "xpos", "X Position", "X Position of the picture", G_MININT, G_MAXINT, 0, CONTROLLABLE),
  RC_INT(RcPipPadSettings, ypos, "ypos", "Y Position", "Y Position of the picture", G_MININT, G_MAXINT, 0, CONTROLLABLE),
  RC_INT(RcPipPadSettings, width, "width", "Width",
      "Width of the picture (-1 or 0: the input's width; on the main pad: the output's)", -1, G_MAXINT, -1, CONTROLLABLE),
  RC_INT(RcPipPadSettings, height, "height", "Height",
      "Height of the picture (-1 or 0: the input's height; on the main pad: the output's)", -1, G_MAXINT, -1,
      CONTROLLABLE),
  RC_DOUBLE(RcPipPadSettings, alpha, "alpha", "Alpha", "Alpha of the picture", 0.0, 1.0, 1.0, CONTROLLABLE),
  RC_ENUM(RcPipPadSettings, sizing_policy, "sizing-policy", "Sizing policy", "Sizing policy to use for image scaling",
      sizing_type, RC_PIP_SIZING_NONE, CONTROLLABLE),
  RC_ENUM(RcPipPadSettings, position, "position", "Position",
      "Where the picture goes: at xpos/ypos (custom) or in a corner of the output, margin pixels from its edges",
      position_type, RC_PIP_POSITION_CUSTOM, CONTROLLABLE),
  RC_UINT(RcPipPadSettings, margin, "margin", "Margin",
      "Distance in pixels from the output's edges for the corner positions", 0, MAX_PIXELS, 0, CONTROLLABLE),
  RC_DOUBLE(RcPipPadSettings, scale, "scale", "Scale",
      "Width of the picture as a fraction of the output's width, aspect ratio kept (0 = use width and height)",
      0.0, 1.0, 0.0, CONTROLLABLE),
  RC_UINT(RcPipPadSettings, border_width, "border-width", "Border width",
      "Width in pixels of a border drawn inside the picture's rectangle", 0, MAX_PIXELS, 0, CONTROLLABLE),
  RC_UINT(RcPipPadSettings, border_color, "border-color", "Border color",
      "Border color to use (big-endian ARGB; alpha is the pad's)", 0, G_MAXUINT32, 0xFFFFFFFFu, CONTROLLABLE),
  RC_UINT(RcPipPadSettings, corner_radius, "corner-radius", "Corner radius",
      "Radius in pixels of the picture's rounded corners (0 = square)", 0, MAX_PIXELS, 0, CONTROLLABLE),
};

RC_DEFINE_TYPE(GstPipCompositorPad, RcPipCompositorPad, rc_pipcompositor_pad, GST_TYPE_VIDEO_AGGREGATOR_PAD,
    pad_properties, rc_pipcompositor_pad_state_new(), rc_no_interfaces)
RC_PROPERTY_ACCESSORS(rc_pipcompositor_pad_, RcPipCompositorPad, settings, pad_properties)

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

#define MUTABLE GST_PARAM_MUTABLE_PLAYING
static const RcProperty properties[] = {
  RC_ENUM(RcPipCompositorSettings, background, "background", "Background",
      "Background type (seen where the main picture does not cover the output)", background_type,
      RC_PIP_BACKGROUND_BLACK, MUTABLE),
  RC_UINT(RcPipCompositorSettings, background_color, "background-color", "Background color",
      "Background color for background=color (big-endian ARGB)", 0, G_MAXUINT32, 0xFF000000u, MUTABLE),
};
/* The aggregator's own setting, shown as compositor shows it. */
#define PROP_IGNORE_INACTIVE_PADS (G_N_ELEMENTS(properties) + 1)

RC_DEFINE_TYPE(GstPipCompositor, RcPipCompositor, rc_pipcompositor, GST_TYPE_VIDEO_AGGREGATOR, properties,
    rc_pipcompositor_state_new(), rc_sink_pads_child_proxy)
GST_ELEMENT_REGISTER_DEFINE(pipcompositor, "pipcompositor", GST_RANK_NONE, rc_pipcompositor_get_type())

static void rc_pipcompositor_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  RcPipCompositor *self = (RcPipCompositor *)object;
  if (id == PROP_IGNORE_INACTIVE_PADS)
    gst_aggregator_set_ignore_inactive_pads(GST_AGGREGATOR(self), g_value_get_boolean(value));
  else if (!rc_properties_set(self, &self->settings, properties, G_N_ELEMENTS(properties), id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void rc_pipcompositor_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  RcPipCompositor *self = (RcPipCompositor *)object;
  if (id == PROP_IGNORE_INACTIVE_PADS)
    g_value_set_boolean(value, gst_aggregator_get_ignore_inactive_pads(GST_AGGREGATOR(self)));
  else if (!rc_properties_get(self, &self->settings, properties, G_N_ELEMENTS(properties), id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

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
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS(klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS(klass);

  g_object_class_install_property(gobject_class, PROP_IGNORE_INACTIVE_PADS,
      g_param_spec_boolean("ignore-inactive-pads", "Ignore inactive pads",
          "Avoid timing out waiting for inactive pads", TRUE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

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
