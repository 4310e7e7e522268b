/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* meters: a C application that runs a pipeline to its end and prints every volumemeter
 * reading. ReplayCast's elements come from replaycast_init(), which registers them in this
 * process, or, with --plugin, from the installed plugin like any other GStreamer element.
 *
 *   cc meters.c $(pkg-config --cflags --libs replaycast) -o meters
 *   ./meters
 *   ./meters --plugin "audiotestsrc num-buffers=50 ! volumemeter ! fakesink"
 *
 * Exit status 0 at end of stream, 1 on an error (printed with the element that posted it). */
#include <replaycast.h>
#include <stdio.h>
#include <string.h>

static const char *default_pipeline =
    "audiotestsrc num-buffers=100 freq=440 volume=0.5 ! audio/x-raw,rate=48000,channels=2 "
    "! volumemeter interval=100000000 loudness=true ! fakesink";

/* rms and peak: a GValueArray with one gdouble per channel. Its fields are read directly
 * because GLib deprecated the g_value_array_* accessors, not the type. */
static void print_channels(const GstStructure *s, const char *field) {
  const GValue *value = gst_structure_get_value(s, field);
  const GValueArray *channels = value != NULL ? g_value_get_boxed(value) : NULL;
  if (channels == NULL) return;
  printf(" %s=", field);
  for (guint i = 0; i < channels->n_values; i++)
    printf("%s%.3f", i > 0 ? "," : "", g_value_get_double(&channels->values[i]));
}

/* momentary, short-term and integrated are there only with loudness=true. */
static void print_loudness(const GstStructure *s, const char *field) {
  gdouble lufs;
  if (gst_structure_get_double(s, field, &lufs)) printf(" %s=%.3f", field, lufs);
}

static void print_reading(const GstStructure *s) {
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  gst_structure_get_clock_time(s, REPLAYCAST_FIELD_RUNNING_TIME, &running_time);
  printf("%s=%" GST_TIME_FORMAT, REPLAYCAST_FIELD_RUNNING_TIME, GST_TIME_ARGS(running_time));
  print_channels(s, REPLAYCAST_FIELD_RMS);
  print_channels(s, REPLAYCAST_FIELD_PEAK);
  print_loudness(s, REPLAYCAST_FIELD_MOMENTARY);
  print_loudness(s, REPLAYCAST_FIELD_SHORT_TERM);
  print_loudness(s, REPLAYCAST_FIELD_INTEGRATED);
  printf("\n");
}

static void print_error(GstMessage *message) {
  GError *error = NULL;
  gchar *debug = NULL;
  gst_message_parse_error(message, &error, &debug);
  fprintf(stderr, "%s: %s\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(message)), error->message);
  if (debug != NULL) fprintf(stderr, "  %s\n", debug);
  g_error_free(error);
  g_free(debug);
}

/* Plays the pipeline until end of stream (0) or an error (1). */
static int run(GstElement *pipeline) {
  GstBus *bus = gst_element_get_bus(pipeline);
  /* A state change that fails has posted its error already: then only drain the bus. */
  gboolean started = gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE;
  int status = -1;
  while (status < 0) {
    GstMessage *message = gst_bus_timed_pop_filtered(bus, started ? GST_CLOCK_TIME_NONE : 0,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
    if (message == NULL) {
      fprintf(stderr, "the pipeline did not start\n");
      status = 1;
    } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS) {
      status = 0;
    } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
      print_error(message);
      status = 1;
    } else if (gst_message_has_name(message, REPLAYCAST_MESSAGE_VOLUMEMETER)) {
      print_reading(gst_message_get_structure(message));
    }
    if (message != NULL) gst_message_unref(message);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  return status;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  gboolean use_plugin = argc > 1 && strcmp(argv[1], "--plugin") == 0;
  if (!use_plugin && !replaycast_init()) {
    fprintf(stderr, "replaycast_init failed: GStreamer is older than the one ReplayCast was built against\n");
    return 1;
  }
  /* Like gst-launch-1.0, the description may also come as several arguments. */
  char **words = argv + 1 + use_plugin;
  gchar *description = *words != NULL ? g_strjoinv(" ", words) : g_strdup(default_pipeline);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  g_free(description);
  int status;
  if (error != NULL) {
    /* gst_parse_launch may return a partial pipeline with the error: it is not run. */
    fprintf(stderr, "pipeline: %s\n", error->message);
    g_error_free(error);
    if (pipeline != NULL) gst_object_unref(pipeline);
    status = 1;
  } else {
    status = run(pipeline);
    gst_object_unref(pipeline);
  }
  gst_deinit();
  return status;
}
