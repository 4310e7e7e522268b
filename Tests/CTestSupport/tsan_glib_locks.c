/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ThreadSanitizer builds only: GLib's GMutex, GCond and GAsyncQueue made visible to it.
 *
 * On Linux GLib implements GMutex and GCond on futexes, in a library built without the
 * sanitizer, so ThreadSanitizer sees none of the order they impose: not GStreamer's (object
 * locks, the aggregator's pad queues, the task that starts a streaming thread) nor what an
 * element relies on when a state change hands its state to that thread. It then reports
 * accesses those locks keep apart as races, in our frames as much as in GStreamer's.
 * Defined in the test executable, these wrappers come before libglib's in symbol lookup, so
 * every call from GStreamer and from our code goes through them; each tells the sanitizer
 * what the lock does (acquire after locking, release before unlocking, both around a
 * condition wait) and calls GLib's own. GLib's calls inside itself are not seen, which
 * leaves them as before. Nothing here is compiled without the sanitizer. */
#define _GNU_SOURCE
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#include <dlfcn.h>
#include <glib.h>

void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

/* GLib's definition, looked up on first use: a library constructor may lock before ours run. */
#define REAL(name, type)                                                  \
  static type real_##name(void) {                                         \
    static type found;                                                    \
    type f = __atomic_load_n(&found, __ATOMIC_ACQUIRE);                   \
    if (!f) {                                                             \
      f = (type)dlsym(RTLD_NEXT, #name);                                  \
      __atomic_store_n(&found, f, __ATOMIC_RELEASE);                      \
    }                                                                     \
    return f;                                                             \
  }

typedef void (*MutexFunction)(GMutex *);
typedef gboolean (*TryLockFunction)(GMutex *);
typedef void (*WaitFunction)(GCond *, GMutex *);
typedef gboolean (*WaitUntilFunction)(GCond *, GMutex *, gint64);
typedef void (*PushFunction)(GAsyncQueue *, gpointer);
typedef gpointer (*PopFunction)(GAsyncQueue *);
typedef gpointer (*TimeoutPopFunction)(GAsyncQueue *, guint64);

REAL(g_mutex_lock, MutexFunction)
REAL(g_mutex_unlock, MutexFunction)
REAL(g_mutex_trylock, TryLockFunction)
REAL(g_cond_wait, WaitFunction)
REAL(g_cond_wait_until, WaitUntilFunction)
REAL(g_async_queue_push, PushFunction)
REAL(g_async_queue_pop, PopFunction)
REAL(g_async_queue_try_pop, PopFunction)
REAL(g_async_queue_timeout_pop, TimeoutPopFunction)

void g_mutex_lock(GMutex *mutex) {
  real_g_mutex_lock()(mutex);
  __tsan_acquire(mutex);
}

gboolean g_mutex_trylock(GMutex *mutex) {
  gboolean locked = real_g_mutex_trylock()(mutex);
  if (locked)
    __tsan_acquire(mutex);
  return locked;
}

void g_mutex_unlock(GMutex *mutex) {
  __tsan_release(mutex);
  real_g_mutex_unlock()(mutex);
}

void g_cond_wait(GCond *cond, GMutex *mutex) {
  __tsan_release(mutex);
  real_g_cond_wait()(cond, mutex);
  __tsan_acquire(mutex);
}

gboolean g_cond_wait_until(GCond *cond, GMutex *mutex, gint64 end_time) {
  __tsan_release(mutex);
  gboolean signalled = real_g_cond_wait_until()(cond, mutex, end_time);
  __tsan_acquire(mutex);
  return signalled;
}

/* What one thread pushes, the thread that pops it sees as the pusher left it. */
void g_async_queue_push(GAsyncQueue *queue, gpointer data) {
  __tsan_release(queue);
  real_g_async_queue_push()(queue, data);
}

gpointer g_async_queue_pop(GAsyncQueue *queue) {
  gpointer data = real_g_async_queue_pop()(queue);
  __tsan_acquire(queue);
  return data;
}

gpointer g_async_queue_try_pop(GAsyncQueue *queue) {
  gpointer data = real_g_async_queue_try_pop()(queue);
  if (data)
    __tsan_acquire(queue);
  return data;
}

gpointer g_async_queue_timeout_pop(GAsyncQueue *queue, guint64 timeout) {
  gpointer data = real_g_async_queue_timeout_pop()(queue, timeout);
  if (data)
    __tsan_acquire(queue);
  return data;
}
#endif
#endif
