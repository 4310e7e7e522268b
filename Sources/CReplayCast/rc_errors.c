#include "include/rc_gst.h"

void rc_element_error_stream_format(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_ERROR(element, STREAM, FORMAT, ("%s", text), ("%s", debug ? debug : ""));
}

void rc_element_error_core_negotiation(gpointer element, const gchar *text, const gchar *debug) {
  GST_ELEMENT_ERROR(element, CORE, NEGOTIATION, ("%s", text), ("%s", debug ? debug : ""));
}
