/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A GOutputStream that collects what is written and hands the whole text to a callback
 * when it is closed. hlssink2 asks its `get-playlist-stream` signal for the stream it
 * writes each playlist to and closes it when done; with this stream an application sees
 * every complete playlist and writes it out itself (dated, atomically). Swift cannot
 * subclass a GObject, so the type lives here. */
#ifndef RC_TEXT_STREAM_H
#define RC_TEXT_STREAM_H

#include <gio/gio.h>

typedef void (*RcTextStreamClosed)(const gchar *text, gsize length, gpointer user_data);

/* `closed` runs once, on the thread that closes (or drops) the stream; `destroy` (may be
 * NULL) frees `user_data` when the stream is finalized. */
GOutputStream *rc_text_stream_new(RcTextStreamClosed closed, gpointer user_data, GDestroyNotify destroy);

#endif
