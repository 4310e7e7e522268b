// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

/// Output buffers for an element that fills its own (dualmixer's mix, replaykitsrc's audio
/// and screen): taken from a GstBufferPool, so a steady stream reuses the few buffers in
/// flight instead of allocating one per output. The pool's buffers are as big as the largest
/// size asked for; a larger request replaces the pool (the old one's buffers are freed as they
/// come back). Used from one thread at a time; `drop()` when the stream stops.
final class OutputBufferPool {
    private var pool: UnsafeMutablePointer<GstBufferPool>?
    private var capacity = 0
    /// Buffers the pool allocates when it starts.
    private let minimumBuffers: Int

    init(minimumBuffers: Int = 0) {
        self.minimumBuffers = minimumBuffers
    }

    deinit { drop() }

    /// A buffer of `size` bytes with undefined contents; nil only if none can be allocated.
    func acquire(size: Int) -> UnsafeMutablePointer<GstBuffer>? {
        if pool == nil || size > capacity {
            guard replace(capacity: Swift.max(size, 2 * capacity, 1)) else { return nil }
        }
        var buffer: UnsafeMutablePointer<GstBuffer>?
        guard gst_buffer_pool_acquire_buffer(pool, &buffer, nil) == GST_FLOW_OK, let buffer else { return nil }
        // The pool sets the size back to `capacity` when the buffer returns.
        if size != capacity { gst_buffer_set_size(buffer, gssize(size)) }
        return buffer
    }

    func drop() {
        guard let pool else { return }
        _ = gst_buffer_pool_set_active(pool, 0)
        gst_object_unref(pool)
        self.pool = nil
        capacity = 0
    }

    private func replace(capacity: Int) -> Bool {
        drop()
        let pool = gst_buffer_pool_new()!
        let config = gst_buffer_pool_get_config(pool)
        gst_buffer_pool_config_set_params(config, nil, guint(capacity), guint(minimumBuffers), 0)
        guard gst_buffer_pool_set_config(pool, config) != 0, gst_buffer_pool_set_active(pool, 1) != 0 else {
            gst_object_unref(pool)
            return false
        }
        self.pool = pool
        self.capacity = capacity
        return true
    }
}
