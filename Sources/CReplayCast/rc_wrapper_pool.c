/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Buffers that own no memory. pipcompositor's in-place plan hands the main picture's memory
 * downstream in a buffer of its own; taking that buffer and its video meta from this pool
 * (and giving the memory up when the buffer comes back) lets a steady stream reuse a few
 * of them instead of allocating a GstBuffer and a meta for every frame. */
#include "include/rc_pipcompositor.h"

typedef struct {
  GstBufferPool parent;
} RcWrapperPool;

typedef struct {
  GstBufferPoolClass parent_class;
} RcWrapperPoolClass;

G_DEFINE_TYPE(RcWrapperPool, rc_wrapper_pool, GST_TYPE_BUFFER_POOL)

static GstFlowReturn alloc_buffer(GstBufferPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *params) {
  (void)pool;
  (void)params;
  *buffer = gst_buffer_new();
  gsize offset[GST_VIDEO_MAX_PLANES] = {0};
  gint stride[GST_VIDEO_MAX_PLANES] = {0};
  GstVideoMeta *meta = gst_buffer_add_video_meta_full(*buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_UNKNOWN,
      0, 0, 0, offset, stride);
  /* Kept through the pool's reset: it is rewritten for each frame. */
  GST_META_FLAG_SET(meta, GST_META_FLAG_POOLED);
  return GST_FLOW_OK;
}

static void reset_buffer(GstBufferPool *pool, GstBuffer *buffer) {
  gst_buffer_remove_all_memory(buffer);
  /* The memory was lent, not changed: the buffer itself is as good as new. */
  GST_BUFFER_FLAG_UNSET(buffer, GST_BUFFER_FLAG_TAG_MEMORY);
  GST_BUFFER_POOL_CLASS(rc_wrapper_pool_parent_class)->reset_buffer(pool, buffer);
}

static void rc_wrapper_pool_class_init(RcWrapperPoolClass *klass) {
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS(klass);
  pool_class->alloc_buffer = alloc_buffer;
  pool_class->reset_buffer = reset_buffer;
}

static void rc_wrapper_pool_init(RcWrapperPool *pool) {
  (void)pool;
}

GstBufferPool *rc_wrapper_pool_new(void) {
  GstBufferPool *pool = g_object_new(rc_wrapper_pool_get_type(), NULL);
  gst_object_ref_sink(pool);
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, NULL, 0, 0, 0);
  if (!gst_buffer_pool_set_config(pool, config) || !gst_buffer_pool_set_active(pool, TRUE))
    gst_clear_object(&pool);
  return pool;
}
