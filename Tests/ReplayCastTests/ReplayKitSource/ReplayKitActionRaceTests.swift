// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit
import Foundation
import ReplayCast
import ReplayCastSupport
import Synchronization
import Testing

/// replaykitsrc's running broadcast is built and dropped by state changes while applications
/// emit its action signals and query its latency from their own threads. Both at once, as
/// fast as they go: no crash, no critical, no error, and the calls land in both states.
@Suite struct ReplayKitActionRaceTests {
    struct Tally {
        var calls = 0
        var eventsTaken = 0
        var eventsRefused = 0
        var liveAnswers = 0
    }

    static let cycles = 2000

    @Test func actionsAndQueriesDuringStateChanges() throws {
        let pipeline = try PipelineRun.parse(
            "replaykitsrc name=rk width=128 height=256 ! fakesink sync=false async=false "
            + "rk.audio_app ! fakesink sync=false async=false rk.audio_mic ! fakesink sync=false async=false")
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
        }
        let source = gst_bin_get_by_name(rc_bin(pipeline), "rk")!
        defer { gst_object_unref(source) }
        let box = UnsafeSendable(source)
        let stop = Atomic(false)
        let tally = Locked(Tally())
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var local = Tally()
            let actions: [String] = ["pause", "resume", "finish"]
            let events: [String] = ["pause", "resume", "orientation=left", "mic-format=24000", "call-start", "call-end"]
            let names: [String] = ["video", "audio_app", "audio_mic"]
            let pads = names.map { gst_element_get_static_pad(rc_element(box.value), $0)! }
            while !stop.load(ordering: .relaxed) {
                rc_emit_action(box.value, actions[local.calls % actions.count])
                if rc_emit_string_action(box.value, "event", events[local.calls % events.count]) != 0 {
                    local.eventsTaken += 1
                } else {
                    local.eventsRefused += 1
                }
                let query = gst_query_new_latency()!
                if gst_pad_query(pads[local.calls % pads.count], query) != 0 {
                    var live: gboolean = 0
                    gst_query_parse_latency(query, &live, nil, nil)
                    if live != 0 { local.liveAnswers += 1 }
                }
                gst_query_unref(query)
                local.calls += 1
            }
            pads.forEach { gst_object_unref($0) }
            tally.withLock { $0 = local }
            done.signal()
        }
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        var errors: [String] = []
        for cycle in 0..<Self.cycles {
            let top = cycle % 2 == 0 ? GST_STATE_PLAYING : GST_STATE_PAUSED
            gst_element_set_state(pipeline, top)
            gst_element_set_state(pipeline, GST_STATE_READY)
            while let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) {
                errors.append(String(cString: rc_object_name(message.pointee.src)))
                gst_message_unref(message)
            }
        }
        stop.store(true, ordering: .relaxed)
        done.wait()
        let seen = tally.withLock { $0 }
        #expect(errors.isEmpty, "errors from \(errors)")
        // Each kind of call happened in both states, often: a running broadcast takes events
        // and answers live; a stopped one refuses them.
        #expect(seen.calls >= Self.cycles, "\(seen.calls) rounds of calls over \(Self.cycles) cycles")
        #expect(seen.eventsTaken > 0 && seen.eventsRefused > 0, "\(seen.eventsTaken) events taken, \(seen.eventsRefused) refused")
        #expect(seen.liveAnswers == seen.calls, "every latency answer says live: \(seen.liveAnswers) of \(seen.calls)")
    }
}
