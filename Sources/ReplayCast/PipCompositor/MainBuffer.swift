// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// The main picture's buffer as the output may use it: whether it holds a whole frame, and
/// whether its memory can become the output (FramePlan.taken). Called once per output
/// frame on the aggregator thread; allocates nothing.
enum MainBuffer {
    /// False when `buffer` is smaller than `info` says a frame is. With a video meta the
    /// planes are where the meta says: mapping checks them instead.
    static func fits(_ buffer: UnsafeMutablePointer<GstBuffer>, _ info: UnsafePointer<GstVideoInfo>) -> Bool {
        gst_buffer_get_video_meta(buffer) != nil || gst_buffer_get_size(buffer) >= info.pointee.size
    }

    /// Whether `main`'s own memory can become the output buffer, without copying: only when
    /// nobody else can see the pixels change. `main` is referenced only by its pad, its memory
    /// is plain system memory, exclusively owned and writable, and its layout is the output's.
    static func canLend(_ main: UnsafeMutablePointer<GstBuffer>, output: UnsafePointer<GstVideoInfo>,
                        wrappers: UnsafeMutablePointer<GstBufferPool>?) -> Bool {
        guard wrappers != nil, rc_buffer_refcount(main) == 1, gst_buffer_is_all_memory_writable(main) != 0 else { return false }
        let count = gst_buffer_n_memory(main)
        guard count > 0 else { return false }
        // Memory of a device or of a fixed-size pool (v4l2, dmabuf, GL) must go back to its
        // owner, so those are copied instead.
        for index in 0..<count {
            guard let memory = gst_buffer_peek_memory(main, index), gst_memory_is_type(memory, GST_ALLOCATOR_SYSMEM) != 0,
                  memory.pointee.mini_object.flags & GST_MEMORY_FLAG_READONLY.rawValue == 0 else { return false }
        }
        guard gst_buffer_get_size(main) >= output.pointee.size else { return false }
        if let meta = gst_buffer_get_video_meta(main), !hasLayout(meta, of: output) { return false }
        return true
    }

    /// The output buffer made of `main`'s own memory (`canLend` said it may be), or nil when
    /// `wrappers` has no buffer to give. The memory moves to a buffer from `wrappers`, whose
    /// video meta then describes the output's layout; `main` is left empty.
    static func lend(_ main: UnsafeMutablePointer<GstBuffer>, output: UnsafePointer<GstVideoInfo>,
                     wrappers: UnsafeMutablePointer<GstBufferPool>?) -> UnsafeMutablePointer<GstBuffer>? {
        guard let wrappers else { return nil }
        let meta = gst_buffer_get_video_meta(main)
        var wrapper: UnsafeMutablePointer<GstBuffer>?
        guard gst_buffer_pool_acquire_buffer(wrappers, &wrapper, nil) == GST_FLOW_OK, let wrapper else { return nil }
        // Out of `main` before into the wrapper: memory with one owner at a time needs no
        // parent list, and stays writable.
        for _ in 0..<gst_buffer_n_memory(main) {
            let memory = gst_buffer_get_memory(main, 0)
            gst_buffer_remove_memory(main, 0)
            gst_buffer_append_memory(wrapper, memory)
        }
        let layout = gst_buffer_get_video_meta(wrapper)!
        layout.pointee.flags = meta?.pointee.flags ?? GST_VIDEO_FRAME_FLAG_NONE
        layout.pointee.format = output.pointee.finfo.pointee.format
        layout.pointee.width = guint(bitPattern: output.pointee.width)
        layout.pointee.height = guint(bitPattern: output.pointee.height)
        layout.pointee.n_planes = output.pointee.finfo.pointee.n_planes
        layout.pointee.offset = output.pointee.offset
        layout.pointee.stride = output.pointee.stride
        return wrapper
    }

    private static func hasLayout(_ meta: UnsafePointer<GstVideoMeta>, of output: UnsafePointer<GstVideoInfo>) -> Bool {
        let meta = meta.pointee, output = output.pointee
        guard meta.format == output.finfo.pointee.format, meta.width == guint(bitPattern: output.width),
              meta.height == guint(bitPattern: output.height), meta.n_planes == output.finfo.pointee.n_planes
        else { return false }
        for index in 0..<Int(meta.n_planes)
        where plane(meta.offset, index) != plane(output.offset, index) || plane(meta.stride, index) != plane(output.stride, index) {
            return false
        }
        return true
    }

    /// Entry `index` of a per-plane C array (GST_VIDEO_MAX_PLANES entries, imported as a tuple).
    private static func plane<T>(_ values: (T, T, T, T), _ index: Int) -> T {
        switch index {
        case 0: values.0
        case 1: values.1
        case 2: values.2
        default: values.3
        }
    }
}
