// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import Foundation

/// The running part of a `Broadcast`: the pipeline and the thread that reads its bus. The
/// thread turns messages into events, notices the end, and takes the pipeline down itself,
/// so teardown never runs on a streaming thread or needs the application's executor.
final class BroadcastCore: @unchecked Sendable {
    enum Phase {
        case idle
        case running
        case ended(BroadcastEnding)
    }

    private struct State {
        var phase = Phase.idle
        var playing = false
        var cancelRequested = false
        /// End-of-stream goes into the pipeline once, whoever asks for it.
        var endOfStreamSent = false
        /// When `stop()`'s end-of-stream (or an output's failure) must have arrived by.
        var deadline: ContinuousClock.Instant?
        var deadlineEnding = BroadcastEnding.timedOut
        /// The error that ends the broadcast once the other outputs finished.
        var pendingError: BroadcastIssue?
        var startWaiters: [CheckedContinuation<BroadcastEnding?, Never>] = []
        var endWaiters: [CheckedContinuation<BroadcastEnding, Never>] = []
        var signalSources: [any DispatchSourceSignal] = []
    }

    /// Owned: one reference, dropped in deinit.
    let pipeline: UnsafeMutablePointer<GstElement>
    private let continuation: AsyncStream<BroadcastEvent>.Continuation
    private let state = Locked(State())
    /// Used by the bus thread only.
    private var decoding = MessageDecoding()
    /// Written by the bus thread, read by `Broadcast.rtmpOutputs` from any thread.
    let reach: Locked<RTMPReach>
    /// The RTMP sinks `reach` reports on, in its order.
    let rtmpSinks: [(sink: UnsafeMutablePointer<GstElement>, reconnects: Bool)]
    let srtSinks: [SRTSink]
    /// Used by the bus thread only.
    private var srtReach: SRTReach
    let traffic = TrafficCounters()
    /// Signalled when the bus thread has taken the pipeline down.
    private let pumpExited = DispatchSemaphore(value: 0)
    private static let wakeName = "replaycastkit-wake"
    /// How often the bus thread looks at srtsinks' statistics for a first packet sent.
    private static let srtSampling = Duration.milliseconds(250)

    init(pipeline: UnsafeMutablePointer<GstElement>, continuation: AsyncStream<BroadcastEvent>.Continuation) {
        self.pipeline = pipeline
        self.continuation = continuation
        rtmpSinks = RTMPReach.sinks(in: pipeline)
        reach = Locked(RTMPReach(sinks: rtmpSinks))
        srtSinks = SRTSink.sinks(in: pipeline)
        srtReach = SRTReach(sinks: srtSinks.filter { !$0.reconnects })
        traffic.attach(to: pipeline)
    }

    deinit { gst_object_unref(pipeline) }

    var phase: Phase { state.withLock { $0.phase } }

    /// Starts the bus thread and sets PLAYING; false when the broadcast was started before.
    func start() -> Bool {
        let fresh = state.withLock { s in
            guard case .idle = s.phase else { return false }
            s.phase = .running
            return true
        }
        guard fresh else { return false }
        Thread.detachNewThread { self.pump() }
        if !HLSFolders.prepared(in: pipeline) || gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            // The element that failed has posted its error before this returns; the bus
            // thread reads it, then this wake, and ends the broadcast with it.
            let issue = BroadcastIssue(element: String(cString: rc_object_name(pipeline)), message: "the pipeline could not start",
                                       debug: nil, domain: "", code: 0)
            state.withLock { s in
                s.deadline = .now
                s.deadlineEnding = .failed(issue)
            }
            wake()
        }
        return true
    }

    func waitUntilPlaying() async -> BroadcastEnding? {
        await withCheckedContinuation { (waiter: CheckedContinuation<BroadcastEnding?, Never>) in
            let answer: BroadcastEnding?? = state.withLock { s in
                // A broadcast that played counts as started even if it has ended since.
                if s.playing { return .some(nil) }
                if case .ended(let ending) = s.phase { return .some(ending) }
                s.startWaiters.append(waiter)
                return nil
            }
            if let answer { waiter.resume(returning: answer) }
        }
    }

    func waitUntilEnded() async -> BroadcastEnding {
        await withCheckedContinuation { (waiter: CheckedContinuation<BroadcastEnding, Never>) in
            let ending: BroadcastEnding? = state.withLock { s in
                if case .ended(let ending) = s.phase { return ending }
                s.endWaiters.append(waiter)
                return nil
            }
            if let ending { waiter.resume(returning: ending) }
        }
    }

    /// Sends end-of-stream; the broadcast ends when it has gone through, or after `timeout`
    /// (nil: whenever that is).
    func requestStop(within timeout: Duration?) {
        let running = state.withLock { s in
            guard case .running = s.phase else { return false }
            if let timeout {
                let deadline = ContinuousClock.now + timeout
                s.deadline = min(s.deadline ?? deadline, deadline)
            }
            return true
        }
        guard running else { return }
        sendEndOfStream()
        wake()
    }

    private func sendEndOfStream() {
        let first = state.withLock { s in
            defer { s.endOfStreamSent = true }
            return !s.endOfStreamSent
        }
        if first { gst_element_send_event(pipeline, gst_event_new_eos()) }
    }

    /// Stops at once (NULL): outputs are left as they are. A broadcast never started ends here.
    func requestCancel() {
        let notStarted = state.withLock { s in
            s.cancelRequested = true
            if case .idle = s.phase { return true }
            return false
        }
        if notStarted { finish(.cancelled, takeDown: false) } else { wake() }
    }

    /// Keeps `source` (the Ctrl-C handler) as long as the broadcast.
    func keep(_ source: any DispatchSourceSignal) {
        state.withLock { $0.signalSources.append(source) }
    }

    /// For deinit: cancels and waits until the pipeline is down.
    func cancelAndWait() {
        guard case .running = phase else { return }
        requestCancel()
        pumpExited.wait()
    }

    private func wake() {
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        gst_bus_post(bus, gst_message_new_application(nil, gst_structure_new_empty(Self.wakeName)))
    }

    private func pump() {
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_WARNING.rawValue |
                                  GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_STATE_CHANGED.rawValue |
                                  GST_MESSAGE_APPLICATION.rawValue | GST_MESSAGE_QOS.rawValue)
        while true {
            let (cancel, deadline) = state.withLock { ($0.cancelRequested, $0.deadline) }
            if cancel { return finish(.cancelled) }
            var timeout = GstClockTime.max
            if let deadline {
                let left = deadline - .now
                if left <= .zero, gst_bus_have_pending(bus) == 0 { return finish(state.withLock { $0.deadlineEnding }) }
                timeout = GstClockTime(Timebase.nanoseconds(left))
            }
            if srtReach.waiting {
                srtReach.sample()
                timeout = min(timeout, GstClockTime(Timebase.nanoseconds(Self.srtSampling)))
            }
            guard let message = gst_bus_timed_pop_filtered(bus, timeout, mask) else { continue }
            defer { gst_message_unref(message) }
            if let ending = handle(message) { return finish(ending) }
        }
    }

    /// Passes the message on as an event; how the broadcast ends, when this message ends it.
    private func handle(_ message: UnsafeMutablePointer<GstMessage>) -> BroadcastEnding? {
        switch message.pointee.type {
        case GST_MESSAGE_STATE_CHANGED:
            guard message.pointee.src == UnsafeMutablePointer<GstObject>(OpaquePointer(pipeline)) else { return nil }
            var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            if new == GST_STATE_PLAYING { becamePlaying() }
            return nil
        case GST_MESSAGE_APPLICATION:
            return nil
        case GST_MESSAGE_QOS:
            traffic.noteQoS(message, from: message.pointee.src.map { String(cString: rc_object_name($0)) } ?? "?")
            return nil
        default:
            break
        }
        guard let event = decoding.event(message) else { return nil }
        let unreached = reach.withLock { reach in
            reach.note(event)
            return event == .endOfStream ? reach.unreached : nil
        } ?? (event == .endOfStream ? srtReach.unreached : nil)
        if let unreached { continuation.yield(.error(unreached)) }
        continuation.yield(event)
        switch event {
        case .endOfStream:
            // Sinks post EOS only in PLAYING, possibly before the pipeline's own message
            // that it is PLAYING: a short non-live broadcast has played when its EOS arrives.
            becamePlaying()
            return (state.withLock { $0.pendingError } ?? unreached).map(BroadcastEnding.failed) ?? .endOfStream
        case .error(let issue):
            guard PipelineEnding.outputsCanFinish(after: message.pointee.src, issue) else { return .failed(issue) }
            let first = state.withLock { s in
                guard s.pendingError == nil else { return false }
                s.pendingError = issue
                s.deadlineEnding = .failed(issue)
                let deadline = ContinuousClock.now + .seconds(PipelineEnding.finishTimeout)
                s.deadline = min(s.deadline ?? deadline, deadline)
                return true
            }
            if first { sendEndOfStream() }
            return nil
        case .warning(let issue):
            guard let unreached = srtReach.note(warning: issue) else { return nil }
            continuation.yield(.error(unreached))
            // Ended at once: srtsink, still trying, holds its streaming thread, so the data
            // ahead of it cannot move and end-of-stream would not get through (sending it
            // blocked this thread for good on GStreamer 1.26).
            return .failed(unreached)
        default:
            return nil
        }
    }

    private func becamePlaying() {
        let waiters = state.withLock { s in
            s.playing = true
            defer { s.startWaiters = [] }
            return s.startWaiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    private func finish(_ ending: BroadcastEnding, takeDown: Bool = true) {
        if takeDown {
            // An rtmpreconnectsink holds its SRT connection open by itself before its EOS.
            if ending == .endOfStream { PipelineEnding.letReceiversCatchUp(srtSinks.filter { !$0.reconnects }.map(\.output)) }
            PipelineEnding.stop(pipeline)
        }
        let (starting, enders) = state.withLock { s in
            s.phase = .ended(ending)
            defer { s.startWaiters = []; s.endWaiters = [] }
            return (s.startWaiters, s.endWaiters)
        }
        continuation.finish()
        for waiter in starting { waiter.resume(returning: ending) }
        for waiter in enders { waiter.resume(returning: ending) }
        if takeDown { pumpExited.signal() }
    }
}
