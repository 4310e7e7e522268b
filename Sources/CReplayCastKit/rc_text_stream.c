/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rc_text_stream.h"

typedef struct {
  GOutputStream parent;
  GString *text;
  RcTextStreamClosed closed;
  gpointer user_data;
  GDestroyNotify destroy;
} RcTextStream;

typedef struct {
  GOutputStreamClass parent_class;
} RcTextStreamClass;

G_DEFINE_TYPE(RcTextStream, rc_text_stream, G_TYPE_OUTPUT_STREAM)

static gssize text_stream_write(GOutputStream *stream, const void *data, gsize count, GCancellable *cancellable,
                                GError **error) {
  RcTextStream *self = (RcTextStream *)stream;
  g_string_append_len(self->text, data, (gssize)count);
  return (gssize)count;
}

static gboolean text_stream_close(GOutputStream *stream, GCancellable *cancellable, GError **error) {
  RcTextStream *self = (RcTextStream *)stream;
  if (self->closed) self->closed(self->text->str, self->text->len, self->user_data);
  self->closed = NULL;
  return TRUE;
}

static void text_stream_finalize(GObject *object) {
  RcTextStream *self = (RcTextStream *)object;
  g_string_free(self->text, TRUE);
  if (self->destroy) self->destroy(self->user_data);
  G_OBJECT_CLASS(rc_text_stream_parent_class)->finalize(object);
}

static void rc_text_stream_class_init(RcTextStreamClass *klass) {
  G_OBJECT_CLASS(klass)->finalize = text_stream_finalize;
  G_OUTPUT_STREAM_CLASS(klass)->write_fn = text_stream_write;
  G_OUTPUT_STREAM_CLASS(klass)->close_fn = text_stream_close;
}

static void rc_text_stream_init(RcTextStream *self) { self->text = g_string_new(NULL); }

GOutputStream *rc_text_stream_new(RcTextStreamClosed closed, gpointer user_data, GDestroyNotify destroy) {
  RcTextStream *self = g_object_new(rc_text_stream_get_type(), NULL);
  self->closed = closed;
  self->user_data = user_data;
  self->destroy = destroy;
  return G_OUTPUT_STREAM(self);
}
