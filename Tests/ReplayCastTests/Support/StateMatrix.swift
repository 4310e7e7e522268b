// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastSupport
import Synchronization

/// One pipeline, kept for its whole life, driven through sequences of state changes, each
/// followed by a run to EOS. What a run yields is what flowed through the observed sink pads
/// and the element messages posted since the pipeline last passed READY (where a stream
/// starts again), so a run after any sequence can be compared with the first one.
final class StateMatrix {
    struct Outcome: Equatable, CustomStringConvertible {
        var buffers: [String: [PadRecorder.BufferRecord]]
        var messages: Int
        var error: String?

        /// Live runs depend on the clock: as many buffers on every pad within `tolerance`,
        /// as many messages within `tolerance`, timestamps increasing, no error. How many
        /// timestamps that compares is `other`'s count less `tolerance`: the tests check the
        /// first run's counts (StateMatrixTests.baseline) before comparing with it.
        func resembles(_ other: Outcome, tolerance: Int) -> Bool {
            guard error == nil, other.error == nil, Set(buffers.keys) == Set(other.buffers.keys),
                  abs(messages - other.messages) <= tolerance else { return false }
            return buffers.allSatisfy { pad, records in
                abs(records.count - other.buffers[pad]!.count) <= tolerance
                    && records.ptsNotIncreasing.isEmpty
            }
        }

        var description: String {
            let counts = buffers.keys.sorted().map { pad in
                let records = buffers[pad]!
                let backwards = records.ptsNotIncreasing.map { "\($0): \(records[$0 - 1].pts) then \(records[$0].pts)" }
                return "\(pad): \(records.count) buffers" + (backwards.isEmpty ? "" : " (timestamps not increasing after buffer \(backwards.joined(separator: ", ")))")
            }
            return counts.joined(separator: ", ") + ", \(messages) messages" + (error.map { ", error \($0)" } ?? "")
        }
    }

    /// A step: a state to reach; PLAYING steps let data flow for a moment before the next one.
    typealias Sequence = [GstState]

    /// Every sequence starts from a finished run (PLAYING at EOS) and passes READY first, so
    /// the run after it restarts the stream: down to READY or NULL and up again, partial runs
    /// stopped in READY or PAUSED without NULL, pauses and resumes in the middle of a run.
    static let sequences: [Sequence] = [
        [GST_STATE_NULL],
        [GST_STATE_READY],
        [GST_STATE_READY, GST_STATE_NULL],
        [GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_READY],
        [GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_NULL],
        [GST_STATE_NULL, GST_STATE_PLAYING, GST_STATE_NULL],
        [GST_STATE_READY, GST_STATE_PLAYING, GST_STATE_READY],
        [GST_STATE_READY, GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY],
        [GST_STATE_READY, GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_READY],
        [GST_STATE_NULL, GST_STATE_PLAYING, GST_STATE_PAUSED],
        [GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED],
    ]

    static func name(_ sequence: Sequence) -> String {
        sequence.map { String(cString: gst_element_state_get_name($0)) }.joined(separator: " → ")
    }

    private final class MessageCounter: Sendable {
        let count = Atomic<Int>(0)
    }

    let pipeline: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>
    private let recorders: [String: PadRecorder]
    private let counter = MessageCounter()
    private let playFor: Double

    /// `observed`: names of sink elements whose "sink" pad is recorded.
    init(_ description: String, observed: [String], playFor: Double = 0.05) throws {
        let pipeline = try PipelineRun.parse(description)
        self.pipeline = pipeline
        self.playFor = playFor
        bus = gst_element_get_bus(pipeline)!
        var recorders: [String: PadRecorder] = [:]
        for name in observed {
            let recorder = PadRecorder()
            recorder.attach(to: pipeline, element: name, pad: "sink")
            recorders[name] = recorder
        }
        self.recorders = recorders
        let context = Unmanaged.passRetained(counter).toOpaque()
        gst_bus_set_sync_handler(bus, { _, message, context in
            if let message, message.pointee.type == GST_MESSAGE_ELEMENT {
                Unmanaged<MessageCounter>.fromOpaque(context!).takeUnretainedValue().count.add(1, ordering: .relaxed)
            }
            return GST_BUS_PASS
        }, context, { context in Unmanaged<MessageCounter>.fromOpaque(context!).release() })
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_bus_set_sync_handler(bus, nil, nil, nil)
        gst_object_unref(bus)
        gst_object_unref(pipeline)
    }

    /// Takes the steps, then plays to EOS (or error, or `timeout`).
    func run(after steps: Sequence = [], timeout: Double = 20) -> Outcome {
        var previous = GST_STATE_PLAYING
        for state in steps {
            change(to: state)
            if state == GST_STATE_PLAYING { Thread.sleep(forTimeInterval: playFor) }
            if state == GST_STATE_PAUSED && previous == GST_STATE_PLAYING { LiveSources.settle(pipeline) }
            previous = state
        }
        change(to: GST_STATE_PLAYING)
        let error = waitForEnd(timeout: timeout)
        return Outcome(buffers: recorders.mapValues(\.buffers), messages: counter.count.load(ordering: .relaxed), error: error)
    }

    /// `cycles` times PLAYING then NULL at once, without waiting for either to complete.
    func cycle(_ cycles: Int) {
        for _ in 0..<cycles {
            gst_element_set_state(pipeline, GST_STATE_PLAYING)
            change(to: GST_STATE_NULL)
        }
    }

    private func change(to state: GstState) {
        gst_element_set_state(pipeline, state)
        gst_element_get_state(pipeline, nil, nil, 5_000_000_000)
        guard state.rawValue <= GST_STATE_READY.rawValue else { return }
        // The streams stopped: what comes next starts from the beginning.
        for recorder in recorders.values { recorder.clear() }
        counter.count.store(0, ordering: .relaxed)
        gst_bus_set_flushing(bus, 1)
        gst_bus_set_flushing(bus, 0)
    }

    private func waitForEnd(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        while Date() < deadline {
            guard let message = gst_bus_timed_pop_filtered(bus, 100_000_000, mask) else { continue }
            defer { gst_message_unref(message) }
            guard message.pointee.type == GST_MESSAGE_ERROR else { return nil }
            var gerror: UnsafeMutablePointer<GError>?
            gst_message_parse_error(message, &gerror, nil)
            defer { g_clear_error(&gerror) }
            return gerror.map { String(cString: $0.pointee.message) } ?? "error"
        }
        let stopped = LiveSources.stopped(in: pipeline)
        return "no EOS after \(timeout) s (\(Self.aggregatorInputs(pipeline))"
            + (stopped.isEmpty ? ")" : "; live sources stopped in PLAYING: \(stopped.joined(separator: ", ")))")
    }

    /// What every aggregator's inputs are doing, for a run that did not end: which have their
    /// EOS, which count as inactive (live, no data yet), which hold queued data.
    static func aggregatorInputs(_ pipeline: UnsafeMutablePointer<GstElement>) -> String {
        var inputs: [String] = []
        for element in BinElements.all(in: pipeline)
        where g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(element)), gst_aggregator_get_type()) != 0 {
            guard let iterator = gst_element_iterate_sink_pads(element) else { continue }
            defer { gst_iterator_free(iterator) }
            var value = GValue()
            defer { g_value_unset(&value) }
            while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
                if let pad = g_value_get_object(&value) {
                    let input = rc_aggregator_pad(pad)
                    inputs.append("\(String(cString: rc_object_name(element))).\(String(cString: rc_object_name(pad))): "
                                  + "eos \(gst_aggregator_pad_is_eos(input) != 0), inactive \(gst_aggregator_pad_is_inactive(input) != 0), "
                                  + "queued \(gst_aggregator_pad_has_buffer(input) != 0)")
                }
                g_value_reset(&value)
            }
        }
        return inputs.isEmpty ? "no aggregator" : inputs.joined(separator: "; ")
    }
}
