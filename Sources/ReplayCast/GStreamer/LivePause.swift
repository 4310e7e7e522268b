// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// A live aggregator's timeout that comes while the element is not PLAYING.
///
/// GstAggregator 1.22 waits on the clock for its live timeout in PAUSED as in PLAYING
/// (gst_aggregator_wait_and_check, gstaggregator.c; 1.26 and 1.28 wait for PLAYING instead):
/// paused in a live pipeline, it times out and makes output for time that never ran, then
/// blocks pushing it into a sink waiting to preroll. On PLAYING the bin starts the sink first,
/// so the aggregator's thread goes on before its element has the new base time: for a moment
/// it reads the whole pause as time gone by, and makes that much silence (or repeated frames)
/// at once, while the inputs' data for it comes too late and is dropped. audiomixer and
/// compositor 1.22 do so; dualmixer and pipcompositor make nothing on a timeout until they are
/// PLAYING again, on every release.
enum LivePause {
    /// Aggregator thread, on a timeout: nil if the element is PLAYING (the timeout stands);
    /// otherwise what aggregate returns after waiting for PLAYING: no output, so the base
    /// class waits on the clock again with the new base time, or FLUSHING once the element
    /// stops or seeks meanwhile.
    static func timeoutOutcome(_ element: UnsafeMutableRawPointer, debug category: DebugLog) -> GstFlowReturn? {
        switch rc_aggregator_wait_playing(rc_aggregator(element)) {
        case RC_LIVE_PAUSE_PLAYING:
            return nil
        case RC_LIVE_PAUSE_RESUMED:
            category.debug(element, "timed out while not PLAYING: nothing made for the pause, the clock is waited on again")
            return rc_aggregator_flow_need_data()
        default:
            category.debug(element, "timed out while not PLAYING, then stopped or flushed")
            return GST_FLOW_FLUSHING
        }
    }
}
