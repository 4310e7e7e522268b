// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport
import Synchronization

/// The counts behind `BroadcastTraffic`. Streaming threads only add to atomics, so counting
/// never holds a buffer back; QoS totals come from the bus thread.
final class TrafficCounters: Sendable {
    enum Point { case framesIn, videoEncoder, audioEncoder }

    private let framesIn = Atomic<Int>(0)
    private let framesOut = Atomic<Int>(0)
    private let encodedBytes = Atomic<Int>(0)
    /// Each element's latest QoS total, by name.
    private let dropped = Locked([String: Int]())

    var snapshot: BroadcastTraffic {
        BroadcastTraffic(framesIn: framesIn.load(ordering: .relaxed), framesOut: framesOut.load(ordering: .relaxed),
                         encodedBytes: encodedBytes.load(ordering: .relaxed),
                         droppedFrames: dropped.withLock { $0.values.reduce(0, +) })
    }

    /// Adds the probes to the elements of `pipeline` (any depth); they keep `self` alive.
    func attach(to pipeline: UnsafeMutablePointer<GstElement>) {
        for element in BinElements.all(in: pipeline) {
            guard let factory = gst_element_get_factory(element) else { continue }
            let name = String(cString: rc_object_name(UnsafeMutableRawPointer(factory)))
            let klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS).map { String(cString: $0) } ?? ""
            if name == "replaykitsrc" {
                probe(element, pad: "video", at: .framesIn)
            } else if klass.contains("Encoder") {
                probe(element, pad: "src", at: klass.contains("Video") ? .videoEncoder : .audioEncoder)
            }
        }
    }

    /// A QoS message: frames are counted in buffers (or the default unit, frames).
    func noteQoS(_ message: UnsafeMutablePointer<GstMessage>, from source: String) {
        var format = GST_FORMAT_UNDEFINED
        var processed: guint64 = 0, count: guint64 = 0
        gst_message_parse_qos_stats(message, &format, &processed, &count)
        guard format == GST_FORMAT_BUFFERS || format == GST_FORMAT_DEFAULT else { return }
        dropped.withLock { $0[source] = Int(clamping: count) }
    }

    private func count(_ buffer: UnsafeMutablePointer<GstBuffer>, at point: Point) {
        switch point {
        case .framesIn:
            framesIn.add(1, ordering: .relaxed)
        case .videoEncoder:
            framesOut.add(1, ordering: .relaxed)
            encodedBytes.add(Int(gst_buffer_get_size(buffer)), ordering: .relaxed)
        case .audioEncoder:
            encodedBytes.add(Int(gst_buffer_get_size(buffer)), ordering: .relaxed)
        }
    }

    private func probe(_ element: UnsafeMutablePointer<GstElement>, pad name: String, at point: Point) {
        guard let pad = gst_element_get_static_pad(element, name) else { return }
        defer { gst_object_unref(pad) }
        PadProbe.add(to: pad, GST_PAD_PROBE_TYPE_BUFFER) { _, buffer in self.count(buffer.assumingMemoryBound(to: GstBuffer.self), at: point) }
    }
}
