// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// One of replaykitsrc's three streams. Each runs on its own pad task and alone touches its
/// producer, so producers need no lock (`owner` checks that in debug builds); what they
/// share is the `BroadcastTimeline`. Sendable by that rule: other threads only hold a
/// reference (ReplayKitSource's running state) and never call into it.
class StreamProducer: @unchecked Sendable {
    let owner = StreamingOwner("replaykitsrc stream")
    let kind: RcStreamKind
    let element: UnsafeMutablePointer<RcReplayKitSrc>
    let pad: UnsafeMutablePointer<GstPad>
    let timeline: BroadcastTimeline
    let configuration: BroadcastConfiguration
    let groupID: guint
    private var started = false
    /// The next buffer starts a new run: first buffer, after a gap, after new caps.
    var discont = true
    private var epoch: UInt64 = 0

    init(kind: RcStreamKind, element: UnsafeMutablePointer<RcReplayKitSrc>, timeline: BroadcastTimeline,
         configuration: BroadcastConfiguration, groupID: guint) {
        self.kind = kind
        self.element = element
        self.timeline = timeline
        self.configuration = configuration
        self.groupID = groupID
        pad = withUnsafeMutablePointer(to: &element.pointee.pads) { pads in
            pads.withMemoryRebound(to: UnsafeMutablePointer<GstPad>.self, capacity: 3) { $0[Int(kind.rawValue)] }
        }
    }

    var streamIndex: Int { Int(kind.rawValue) }

    /// The caps the stream starts with.
    func initialCaps() -> UnsafeMutablePointer<GstCaps> { fatalError("subclass") }

    /// Produces the next buffer, gap or end; false stops the task.
    func produce() -> Bool { fatalError("subclass") }

    /// One task iteration: the stream's opening events, then the next item.
    final func step() -> Bool {
        if !started {
            if configuration.live {
                guard waits.waitForPlaying() == .due else { return false }
                epoch = timeline.epoch(startingAt: UInt64(StreamWaits.runningTime(of: rc_element(element))))
            }
            pushStart()
            started = true
        }
        return produce()
    }

    private func pushStart() {
        let name = ["video", "audio_app", "audio_mic"][streamIndex]
        let id = gst_pad_create_stream_id(pad, rc_element(element), name)
        let start = gst_event_new_stream_start(id)!
        g_free(id)
        gst_event_set_group_id(start, groupID)
        _ = gst_pad_push_event(pad, start)
        pushCaps(initialCaps())
        var segment = GstSegment()
        gst_segment_init(&segment, GST_FORMAT_TIME)
        _ = gst_pad_push_event(pad, gst_event_new_segment(&segment))
    }

    /// Takes ownership of `caps`.
    func pushCaps(_ caps: UnsafeMutablePointer<GstCaps>) {
        _ = gst_pad_push_event(pad, gst_event_new_caps(caps))
        gst_caps_unref(caps)
        discont = true
    }

    /// Buffer timestamps: broadcast time on the pipeline's running time.
    func runningTime(_ broadcastTime: UInt64) -> GstClockTime { GstClockTime(epoch &+ broadcastTime) }

    /// Live: the broadcast time the pipeline clock is at now (0 before the epoch or without a clock).
    func broadcastTimeNow() -> UInt64 {
        let now = StreamWaits.runningTime(of: rc_element(element))
        return now != GstClockTime.none && UInt64(now) > epoch ? UInt64(now) - epoch : 0
    }

    private var waits: StreamWaits { ReplayKitSource.of(element).waits }

    /// In live mode, blocks until broadcast time `time` has come on the pipeline clock.
    func wait(until time: UInt64) -> StreamWaits.Outcome {
        guard configuration.live else { return .due }
        return waits.wait(until: runningTime(time), stream: streamIndex, of: rc_element(element))
    }

    /// Nothing to produce until an action signal arrives (or the element stops).
    func waitForAction() -> StreamWaits.Outcome {
        waits.waitForWake(stream: streamIndex)
    }

    /// Pushes a buffer stamped [time, time + duration); false when the task must stop.
    func push(_ buffer: UnsafeMutablePointer<GstBuffer>, time: UInt64, duration: UInt64) -> Bool {
        announce(upTo: time)
        buffer.pointee.pts = runningTime(time)
        buffer.pointee.duration = GstClockTime(duration)
        if discont {
            buffer.pointee.mini_object.flags |= GST_BUFFER_FLAG_DISCONT.rawValue
            discont = false
        }
        return flowContinues(gst_pad_push(pad, buffer))
    }

    /// A `size`-byte buffer from `pool`; nil, with an error posted, when none can be had.
    func outputBuffer(from pool: OutputBufferPool, size: Int, what: String) -> UnsafeMutablePointer<GstBuffer>? {
        guard let buffer = pool.acquire(size: size) else {
            rc_element_error_stream_format(element, "replaykitsrc could not get \(what) buffer", nil)
            return nil
        }
        return buffer
    }

    /// Time with no buffers (pause, call, mic off): announced with a GAP event if wanted.
    func gap(time: UInt64, duration: UInt64) {
        announce(upTo: time)
        discont = true
        DebugLog.replaykitsrc.log(element, "\(String(cString: rc_object_name(pad))): nothing captured for \(duration) ns at broadcast time \(time) ns"
                                  + (configuration.gapEvents ? ", GAP event" : ""))
        if configuration.gapEvents {
            _ = gst_pad_push_event(pad, gst_event_new_gap(runningTime(time), GstClockTime(duration)))
        }
    }

    /// Ends the stream at the broadcast's finish, once that time has come.
    func endWhenDue(_ finish: UInt64) -> Bool {
        switch wait(until: finish) {
        case .stopped: return false
        case .woken: return true
        case .due: return end(at: finish)
        }
    }

    func end(at time: UInt64) -> Bool {
        announce(upTo: time)
        _ = gst_pad_push_event(pad, gst_event_new_eos())
        return false
    }

    /// An unlinked pad keeps its stream's schedule and drops the data: the other pads flow.
    private func flowContinues(_ flow: GstFlowReturn) -> Bool {
        switch flow {
        case GST_FLOW_OK, GST_FLOW_NOT_LINKED:
            return true
        case GST_FLOW_FLUSHING, GST_FLOW_EOS:
            return false
        default:
            rc_element_flow_error(element, flow)
            _ = gst_pad_push_event(pad, gst_event_new_eos())
            return false
        }
    }

    private func announce(upTo time: UInt64) {
        let (started, events) = timeline.advance(stream: streamIndex, to: time)
        if started { BroadcastMessages.started(element, configuration: configuration, runningTime: runningTime(0)) }
        for event in events { BroadcastMessages.lifecycle(element, event: event, runningTime: runningTime(event.time)) }
    }
}
