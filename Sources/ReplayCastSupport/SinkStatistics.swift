// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// A publishing sink's `stats`, read without making it warn. srtsink logs a warning at every
/// read until its connection is made (libsrt keeps no statistics for a socket still
/// connecting: "failed to retrieve stats … Connection does not exist"), and then gives
/// nothing but `bytes-sent-total`, 0. In caller mode srtsink's first render waits for the
/// connection, and one that fails (no receiver) ends its streaming; GstBaseSink counts that
/// render too. So an srtsink's are read only once it has rendered two buffers: the second
/// comes only after a connection was made. Before that there are none (nil).
package enum SinkStatistics {
    package static func read<Result>(_ sink: UnsafeMutablePointer<GstElement>,
                                    _ body: (UnsafePointer<GstStructure>?) -> Result) -> Result {
        guard !isSrtSink(sink) || rendered(sink) >= 2 else { return body(nil) }
        return ObjectProperties.structure(sink, "stats", body)
    }

    private static func isSrtSink(_ sink: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let factory = gst_element_get_factory(sink) else { return false }
        return String(cString: rc_object_name(UnsafeMutableRawPointer(factory))) == "srtsink"
    }

    /// GstBaseSink's own count of renders (srtsink's `stats` property hides GstBaseSink's).
    private static func rendered(_ sink: UnsafeMutablePointer<GstElement>) -> guint64 {
        guard let stats = gst_base_sink_get_stats(UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstBaseSink.self)) else {
            return 0
        }
        defer { gst_structure_free(stats) }
        var rendered: guint64 = 0
        _ = gst_structure_get_uint64(stats, "rendered", &rendered)
        return rendered
    }
}
