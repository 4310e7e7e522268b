// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// How replaykitsrc's stream tasks wait: for PLAYING (live mode), for a running time on the
/// pipeline clock, or for an action signal. Every wait ends when the pads deactivate; a
/// clock wait cut short by PLAYING → PAUSED waits for PLAYING again and then for the same
/// time, so a live broadcast paused by its pipeline goes on where its schedule says.
final class StreamWaits: Sendable {
    enum Outcome { case due, woken, stopped }

    // The clock ids are created, waited on and freed by their stream's thread; other threads
    // only unschedule them, under the lock, while they are registered here.
    private struct State: @unchecked Sendable {
        var playing = false
        var flushing = true
        var clockWaits: [GstClockID?] = Array(repeating: nil, count: Int(RC_STREAM_COUNT.rawValue))
        var woken = Array(repeating: false, count: Int(RC_STREAM_COUNT.rawValue))

        func unscheduleClockWaits() {
            for case let id? in clockWaits { gst_clock_id_unschedule(id) }
        }
    }

    private let state = WaitableMutex(State())

    /// Pads deactivating (true) or activating (false).
    func setFlushing(_ flushing: Bool) {
        state.update { s in
            s.flushing = flushing
            if flushing { s.unscheduleClockWaits() }
        }
    }

    /// PAUSED → PLAYING (true) and back (false).
    func setPlaying(_ playing: Bool) {
        state.update { s in
            s.playing = playing
            if !playing { s.unscheduleClockWaits() }
        }
    }

    /// An action signal arrived: every stream decides again.
    func wake() {
        state.update { s in
            s.woken = s.woken.map { _ in true }
            s.unscheduleClockWaits()
        }
    }

    func waitForPlaying() -> Outcome {
        state.wait(until: { $0.playing || $0.flushing }, then: { $0.flushing ? .stopped : .due })
    }

    /// A stream with nothing to do until an action signal arrives.
    func waitForWake(stream: Int) -> Outcome {
        state.wait(until: { $0.woken[stream] || $0.flushing }, then: { s in
            s.woken[stream] = false
            return s.flushing ? .stopped : .woken
        })
    }

    /// Until the pipeline clock reaches `runningTime`; at once without a clock.
    func wait(until runningTime: GstClockTime, stream: Int, of element: UnsafeMutablePointer<GstElement>) -> Outcome {
        while true {
            guard waitForPlaying() == .due else { return .stopped }
            guard let clock = gst_element_get_clock(element) else { return .due }
            let id = gst_clock_new_single_shot_id(clock, gst_element_get_base_time(element) &+ runningTime)!
            gst_object_unref(clock)
            let armed = state.withLock { s -> Bool in
                let armed = s.playing && !s.flushing && !s.woken[stream]
                if armed { s.clockWaits[stream] = id }
                return armed
            }
            let result = armed ? gst_clock_id_wait(id, nil) : GST_CLOCK_UNSCHEDULED
            let (flushing, woken) = state.withLock { s -> (Bool, Bool) in
                s.clockWaits[stream] = nil
                defer { s.woken[stream] = false }
                return (s.flushing, s.woken[stream])
            }
            gst_clock_id_unref(id)
            if flushing { return .stopped }
            if woken { return .woken }
            if result == GST_CLOCK_OK || result == GST_CLOCK_EARLY { return .due }
        }
    }

    /// The pipeline clock's running time, or GST_CLOCK_TIME_NONE without a clock.
    static func runningTime(of element: UnsafeMutablePointer<GstElement>) -> GstClockTime {
        guard let clock = gst_element_get_clock(element) else { return .none }
        defer { gst_object_unref(clock) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(element)
        return now > base ? now - base : 0
    }
}
