// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCast
import Synchronization

/// Counts what flows at the points the status screen reports, with pad probes (streaming
/// threads only add to atomics): video frames leaving each `replaykitsrc` (in) and each
/// video encoder (out), and the bytes leaving every encoder (the output bitrate).
final class PipelineProbes: Sendable {
    let framesIn = Atomic<Int>(0)
    let framesOut = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)

    /// Adds the probes to the elements of `pipeline` (any depth). Keeps `self` alive as
    /// long as the probes exist.
    func attach(to pipeline: UnsafeMutablePointer<GstElement>) {
        for element in BinElements.all(in: pipeline) { probe(element) }
    }

    private func probe(_ element: UnsafeMutablePointer<GstElement>) {
        guard let factory = gst_element_get_factory(element) else { return }
        let name = String(cString: rc_object_name(UnsafeMutableRawPointer(factory)))
        let klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS).map { String(cString: $0) } ?? ""
        if name == "replaykitsrc" {
            probe(element, pad: "video", counting: .framesIn)
        } else if klass.contains("Encoder") {
            probe(element, pad: "src", counting: klass.contains("Video") ? .videoEncoder : .audioEncoder)
        }
    }

    enum Counting { case framesIn, videoEncoder, audioEncoder }

    private func probe(_ element: UnsafeMutablePointer<GstElement>, pad name: String, counting: Counting) {
        guard let pad = gst_element_get_static_pad(element, name) else { return }
        defer { gst_object_unref(pad) }
        let context = Unmanaged.passRetained(ProbeContext(probes: self, counting: counting)).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, countBuffer, context, releaseProbeContext)
    }
}

private final class ProbeContext {
    let probes: PipelineProbes
    let counting: PipelineProbes.Counting

    init(probes: PipelineProbes, counting: PipelineProbes.Counting) {
        self.probes = probes
        self.counting = counting
    }
}

private func countBuffer(_: UnsafeMutablePointer<GstPad>?, _ info: UnsafeMutablePointer<GstPadProbeInfo>?,
                         _ context: gpointer?) -> GstPadProbeReturn {
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let probe = Unmanaged<ProbeContext>.fromOpaque(context).takeUnretainedValue()
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    switch probe.counting {
    case .framesIn:
        probe.probes.framesIn.add(1, ordering: .relaxed)
    case .videoEncoder:
        probe.probes.framesOut.add(1, ordering: .relaxed)
        probe.probes.bytesOut.add(Int(gst_buffer_get_size(buffer)), ordering: .relaxed)
    case .audioEncoder:
        probe.probes.bytesOut.add(Int(gst_buffer_get_size(buffer)), ordering: .relaxed)
    }
    return GST_PAD_PROBE_OK
}

private func releaseProbeContext(_ context: gpointer?) {
    guard let context else { return }
    Unmanaged<ProbeContext>.fromOpaque(context).release()
}
