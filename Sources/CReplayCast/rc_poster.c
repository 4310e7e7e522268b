/* Meter messages leave the streaming thread through one poster thread, in batches.
 *
 * Why: every gst_bus_post that finds the bus idle wakes its reader (a syscall and a context
 * switch on each side): measured here at 15-25 µs of CPU per message, more than volumemeter
 * spends measuring a whole 10 ms buffer. The bus coalesces wake-ups for messages posted
 * while its reader is still awake, so this thread collects what arrives within
 * BATCH_WINDOW of a first message and posts it in one go: one wake-up per batch when a
 * pipeline runs faster than real time, at most BATCH_WINDOW of extra delay in a live one.
 * Handing a message over costs the streaming thread a queue push. Order is kept (one
 * thread, FIFO), and rc_post_flush lets a streaming thread wait until its messages are out,
 * so the last interval is on the bus before the EOS that follows it. */
#include "include/rc_gst.h"

typedef struct {
  GstElement *element; /* NULL for a fence */
  GstMessage *message;
  GMutex *lock;
  GCond *cond;
  gboolean *done;
} PostItem;

#define BATCH_WINDOW_US 10000

static GAsyncQueue *queue;
/* The batch window is a timed wait on `urgent`, not a sleep: pushing a message leaves it
 * alone (no wake-up per message), pushing a fence ends it, so a stream's last messages reach
 * the bus at once instead of one window later (a 10 ms stall at every EOS before). A fence
 * answered outside a window leaves `urgent` set, which only shortens the next window. */
static GMutex window_lock;
static GCond window_cond;
static gboolean urgent;

static void deliver(PostItem *item) {
  if (item->element) {
    gst_element_post_message(item->element, item->message);
    gst_object_unref(item->element);
  } else {
    g_mutex_lock(item->lock);
    *item->done = TRUE;
    g_cond_signal(item->cond);
    g_mutex_unlock(item->lock);
  }
  g_free(item);
}

static void wait_for_company(void) {
  gint64 deadline = g_get_monotonic_time() + BATCH_WINDOW_US;
  g_mutex_lock(&window_lock);
  while (!urgent && g_cond_wait_until(&window_cond, &window_lock, deadline))
    ;
  urgent = FALSE;
  g_mutex_unlock(&window_lock);
}

static gpointer poster_main(gpointer unused) {
  for (;;) {
    PostItem *item = g_async_queue_pop(queue);
    /* a fence is waited for: answer it at once; a message may wait for company */
    if (item->element)
      wait_for_company();
    /* only what has arrived by now: a stream that keeps producing must not keep this
     * loop posting one message at a time */
    gint batch = g_async_queue_length(queue);
    deliver(item);
    while (batch-- > 0 && (item = g_async_queue_try_pop(queue)) != NULL)
      deliver(item);
  }
  return NULL;
}

static void ensure_poster(void) {
  static gsize started = 0;
  if (g_once_init_enter(&started)) {
    queue = g_async_queue_new();
    g_thread_unref(g_thread_new("replaycast-post", poster_main, NULL));
    g_once_init_leave(&started, 1);
  }
}

void rc_post_async(GstElement *element, GstMessage *message) {
  ensure_poster();
  PostItem *item = g_new0(PostItem, 1);
  item->element = gst_object_ref(element);
  item->message = message;
  g_async_queue_push(queue, item);
}

void rc_post_flush(void) {
  ensure_poster();
  GMutex lock;
  GCond cond;
  gboolean done = FALSE;
  g_mutex_init(&lock);
  g_cond_init(&cond);
  PostItem *fence = g_new0(PostItem, 1);
  fence->lock = &lock;
  fence->cond = &cond;
  fence->done = &done;
  g_async_queue_push(queue, fence);
  g_mutex_lock(&window_lock);
  urgent = TRUE;
  g_cond_signal(&window_cond);
  g_mutex_unlock(&window_lock);
  g_mutex_lock(&lock);
  while (!done)
    g_cond_wait(&cond, &lock);
  g_mutex_unlock(&lock);
  g_mutex_clear(&lock);
  g_cond_clear(&cond);
}
