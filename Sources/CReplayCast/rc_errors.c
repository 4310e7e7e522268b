/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "include/rc_gst.h"

void rc_element_error_stream_format(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("%s", text), ("%s", debug ? debug : ""));
}

void rc_element_warning_stream_format(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_WARNING(element, STREAM, FORMAT, ("%s", text), ("%s", debug ? debug : ""));
}

void rc_element_error_core_negotiation(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_ERROR(element, CORE, NEGOTIATION, ("%s", text), ("%s", debug ? debug : ""));
}

void rc_element_flow_error(gpointer element, GstFlowReturn flow) {
  GST_ELEMENT_FLOW_ERROR(element, flow);
}

void rc_element_error_library_settings(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_ERROR(element, LIBRARY, SETTINGS, ("%s", text), ("%s", debug ? debug : ""));
}

void rc_element_error_resource(gpointer element, GstResourceError code, const gchar *text, const gchar *debug) {
  gst_element_message_full(GST_ELEMENT(element), GST_MESSAGE_ERROR, GST_RESOURCE_ERROR, code, g_strdup(text),
      debug ? g_strdup(debug) : NULL, __FILE__, GST_FUNCTION, __LINE__);
}

void rc_element_warning_resource_settings(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_WARNING(element, RESOURCE, SETTINGS, ("%s", text), ("%s", debug ? debug : ""));
}
