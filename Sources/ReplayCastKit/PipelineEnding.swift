// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// How a broadcast pipeline is brought down.
enum PipelineEnding {
    /// How long the other outputs get to finish after an output that keeps taking data
    /// failed (rtmpreconnectsink giving up), in seconds.
    static let finishTimeout = 10.0

    /// Whether the rest of the pipeline can still end properly after `source` posted `issue`:
    /// rtmpreconnectsink keeps taking (and dropping) data after it gave up, and replaykitsrc
    /// ends every stream after its memory limit killed the broadcast, so HLS and recordings
    /// can still finish on EOS. After any other error the pipeline stops at once.
    static func outputsCanFinish(after source: UnsafeMutablePointer<GstObject>?, _ issue: BroadcastIssue) -> Bool {
        guard let source else { return false }
        let instance = UnsafeMutablePointer<GTypeInstance>(OpaquePointer(source))
        if g_type_check_instance_is_a(instance, rc_rtmpreconnectsink_get_type()) != 0 { return true }
        return g_type_check_instance_is_a(instance, rc_replaykitsrc_get_type()) != 0
            && issue.domain == "gst-resource-error-quark" && issue.code == Int(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue)
    }

    /// An SRT receiver holds each packet for the connection's latency before handing it on,
    /// and drops what it still holds when the caller closes the connection: after the end of
    /// stream, the broadcast keeps its SRT connections open for twice the longest negotiated
    /// latency, so the last packets and their retransmissions arrive. Measured with
    /// srt-live-transmit at 125 ms: closing at once cut the last video frame of the recording
    /// (`PES packet size mismatch`), 0.3 s later it was whole.
    static func letReceiversCatchUp(_ outputs: [SRTOutput]) {
        guard let longest = outputs.map(\.latencyMilliseconds).max(), longest > 0 else { return }
        usleep(useconds_t(min(2 * longest, 10_000)) * 1000)
    }

    /// Takes the pipeline to NULL, so every streaming thread has ended before it is freed.
    /// A bin stops going down at the first child that fails (hlssink2's giostreamsink does
    /// after a segment could not be opened), leaving the others running: then each element
    /// is taken down on its own.
    static func stop(_ pipeline: UnsafeMutablePointer<GstElement>) {
        guard gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE else { return }
        // Locked, so the bins leave them in NULL: asked to pass through READY on the bin's way
        // down, the failing sink would fail again.
        for element in BinElements.all(in: pipeline) {
            gst_element_set_state(element, GST_STATE_NULL)
            gst_element_set_locked_state(element, 1)
        }
        // The failed change left NULL as the pipeline's target, so asking for NULL again is a
        // no-op: forget the failed change first.
        gst_element_abort_state(pipeline)
        gst_element_set_state(pipeline, GST_STATE_NULL)
    }
}
