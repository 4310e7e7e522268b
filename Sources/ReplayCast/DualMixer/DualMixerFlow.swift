// SPDX-License-Identifier: LGPL-2.1-or-later
import ReplayCastSupport
/// Flow control between dualmixer's inputs' upstream threads, which place buffers as they
/// arrive, and the aggregator thread, which mixes: an input far enough ahead waits for the
/// mix to move on, and inputs wait out a flushing seek until the mixer has restarted. Events
/// and state changes on any thread end the waits.
struct DualMixerFlow: Sendable {
    private struct State {
        /// Counts the aggregator's passes; a waiting input looks for it to change.
        var progress: UInt64 = 0
        /// PAUSED -> READY: every wait ends.
        var stopping = false
        /// From a flushing seek until the base class has flushed the mixer (after the last
        /// pad's FLUSH_STOP): an input that is done flushing first waits, so its new data meets
        /// a mixer that starts again, not the state from before the seek.
        var restarting = false
        /// Per pad, between its FLUSH_START and FLUSH_STOP.
        var flushing = [false, false]

        func stopped(_ pad: Int) -> Bool { stopping || flushing[pad] }
    }

    private let state = WaitableMutex(State())

    /// What an input reads before deciding to wait, so a mix in between ends the wait at once.
    var progress: UInt64 { state.withLock { $0.progress } }

    /// The aggregator has mixed what it could, and popped tokens: an input ahead may have room.
    func advance() {
        state.update { $0.progress += 1 }
    }

    /// Upstream thread of `pad`: waits until the mix has moved on from `seen` (true), or the
    /// pad is flushing or the element stopping (false).
    func waitForProgress(pad: Int, since seen: UInt64) -> Bool {
        state.wait(until: { $0.progress != seen || $0.stopped(pad) }, then: { !$0.stopped(pad) })
    }

    /// Upstream thread of `pad`, before its data: false if the pad is flushing again or the
    /// element stopping.
    func waitUntilRestarted(pad: Int) -> Bool {
        state.wait(until: { !$0.restarting || $0.stopped(pad) }, then: { !$0.stopped(pad) })
    }

    func setFlushing(_ flushing: Bool, pad: Int) {
        state.update { $0.flushing[pad] = flushing }
    }

    func setRestarting(_ restarting: Bool) {
        state.update { $0.restarting = restarting }
    }

    /// PAUSED -> READY: an upstream thread may be waiting in chain.
    func endWaits() {
        state.update { $0.stopping = true }
    }

    /// READY -> PAUSED: a new run waits for nothing from the last.
    func reset() {
        state.update { state in
            state.restarting = false
            state.stopping = false
        }
    }
}
