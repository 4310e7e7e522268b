// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastSupport

/// The live GstBaseSrc sources of a pipeline, around a race in GStreamer itself.
///
/// When a live source goes PLAYING → PAUSED, `gst_base_src_set_playing` unschedules the clock
/// wait its streaming thread is in; the thread wakes, sees `live_running` false, leaves
/// `gst_base_src_get_range` with FLUSHING and pauses its own task (`gst_base_src_loop`). The
/// next PAUSED → PLAYING starts the task again, unless that start comes between the thread's
/// FLUSHING and its `gst_pad_pause_task`: then the task stays paused in PLAYING and the
/// source never sends another buffer nor its EOS. With `level` or `volumemeter` behind a live
/// audiotestsrc, PAUSED then PLAYING at once stops the source in about 1 of 250 pauses on a
/// loaded machine (gstbasesrc.c, GStreamer 1.22 to 1.28).
enum LiveSources {
    /// After PLAYING → PAUSED: waits (at most `timeout`) until each live source's streaming
    /// thread has paused its task, so PLAYING next restarts it. A thread that was not in a
    /// clock wait never pauses its task (it waits for PLAYING in `get_range` instead): the
    /// timeout covers it.
    static func settle(_ pipeline: UnsafeMutablePointer<GstElement>, timeout: Double = 0.5) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, sources(in: pipeline).contains(where: { taskState($0) == GST_TASK_STARTED }) {
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// Live sources whose task is paused although their element is PLAYING: stopped by the race.
    static func stopped(in pipeline: UnsafeMutablePointer<GstElement>) -> [String] {
        sources(in: pipeline).filter { source in
            var state = GST_STATE_VOID_PENDING
            gst_element_get_state(source, &state, nil, 0)
            return state == GST_STATE_PLAYING && taskState(source) == GST_TASK_PAUSED
        }.map { String(cString: rc_object_name($0)) }
    }

    private static func sources(in pipeline: UnsafeMutablePointer<GstElement>) -> [UnsafeMutablePointer<GstElement>] {
        BinElements.all(in: pipeline).filter { element in
            g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(element)), gst_base_src_get_type()) != 0
                && gst_base_src_is_live(UnsafeMutablePointer<GstBaseSrc>(OpaquePointer(element))) != 0
        }
    }

    private static func taskState(_ source: UnsafeMutablePointer<GstElement>) -> GstTaskState {
        gst_pad_get_task_state(UnsafeMutablePointer<GstBaseSrc>(OpaquePointer(source)).pointee.srcpad)
    }
}
