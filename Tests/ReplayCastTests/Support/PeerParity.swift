// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import Synchronization

/// One of our aggregators and its upstream peer in one pipeline, fed the same inputs through
/// tees, with the same properties set on both: what an inherited property changes (buffer
/// counts, timestamps, pixels, latency, signals) must come out the same.
struct PeerParity {
    /// An element and its peer: factory names, the names of their input pads in input order,
    /// and what the peer needs to draw the same picture where its defaults differ (none of it
    /// a property a case compares).
    struct Pair: Sendable {
        var ours: String
        var peer: String
        var ourPads: [String]
        var peerPads: [String]
        var peerFixed = ""

        static let pipcompositor = Pair(ours: "pipcompositor", peer: "compositor", ourPads: ["sink_0", "sink_1", "sink_2"],
                                        peerPads: ["sink_0", "sink_1", "sink_2"], peerFixed: "background=black")
        static let dualmixer = Pair(ours: "dualmixer", peer: "audiomixer", ourPads: ["app", "mic"],
                                    peerPads: ["sink_0", "sink_1"])

        /// `sink_N::` in `properties` names input N's pad of `element`.
        func properties(_ properties: String, for element: String) -> String {
            let pads = element == ours ? ourPads : peerPads
            var text = properties
            for (index, pad) in pads.enumerated().reversed() { text = text.replacingOccurrences(of: "sink_\(index)::", with: "\(pad)::") }
            return text
        }
    }

    struct Side {
        var buffers: [PadRecorder.BufferRecord]
        /// The element's output reached EOS.
        var ended: Bool
        var frames: [GrabbedFrame]
        /// samples-selected signals (with emit-signals=true).
        var selected: Int
        /// The element's src pad's LATENCY answer while PLAYING (live and minimum), if asked.
        var latency: (live: Bool, min: UInt64)?
        var pts: [UInt64] { buffers.map(\.pts) }
        var end: UInt64? { buffers.last.map { $0.pts + $0.duration } }
    }

    struct Outcome {
        var run: PipelineRun
        var ours: Side
        var peer: Side
        var text: String {
            "ours: \(ours.buffers.count) buffers from \(ours.pts.first ?? 0) ns, peer: \(peer.buffers.count) from \(peer.pts.first ?? 0) ns"
        }
    }

    /// Runs `inputs` (launch fragments ending in caps, one per input pad in order) into both
    /// elements, named `ours` and `peer`, with `both` on each (pad properties as `sink_N::`),
    /// `ours`/`peer` on one alone, then `output` (caps) and a fakesink. `frames`: copy the
    /// video frames. `unlinked`: request that many more input pads, never linked. `timeout`:
    /// a run that ends by time is stopped there (an unending output). `whilePlaying` runs
    /// right after PLAYING; `latencyAfter`: seconds after it at which both src pads are asked
    /// for their latency, once both last output buffers last `latencyDuration` (when given).
    /// `inspect` notes each output buffer's bytes (`PadRecorder`).
    static func run(_ pair: Pair, inputs: [String], both: String = "", ours: String = "", peer: String = "",
                    output: String = "", frames: Bool = false, unlinked: Int = 0, timeout: Double = 20,
                    inspect: (@Sendable (UnsafeRawBufferPointer) -> String?)? = nil,
                    whilePlaying: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                    latencyAfter: Double? = nil, latencyDuration: UInt64? = nil) throws -> Outcome {
        var description = ""
        for (index, input) in inputs.enumerated() {
            description += "\(input) ! tee name=in\(index) "
                + "in\(index). ! queue ! ours.\(pair.ourPads[index]) in\(index). ! queue ! peer.\(pair.peerPads[index]) "
        }
        let out = output.isEmpty ? "" : "! \(output) "
        description += "\(pair.ours) name=ours \(pair.properties(both, for: pair.ours)) \(ours) \(out)"
            + "! fakesink name=ours_out "
            + "\(pair.peer) name=peer \(pair.peerFixed) \(pair.properties(both, for: pair.peer)) \(peer) \(out)"
            + "! fakesink name=peer_out"
        let recorders = (ours: PadRecorder(inspect: inspect), peer: PadRecorder(inspect: inspect))
        let grabbers = (ours: FrameGrabber(), peer: FrameGrabber())
        let selected = (ours: SignalCount(), peer: SignalCount())
        let latencies = Mutex<[String: (live: Bool, min: UInt64)]>([:])
        let run = try PipelineRun.run(description, timeout: timeout, prepare: { pipeline in
            recorders.ours.attach(to: pipeline, element: "ours", pad: "src")
            recorders.peer.attach(to: pipeline, element: "peer", pad: "src")
            if frames {
                grabbers.ours.attach(to: pipeline, element: "ours_out")
                grabbers.peer.attach(to: pipeline, element: "peer_out")
            }
            selected.ours.attach(to: pipeline, element: "ours", signal: "samples-selected")
            selected.peer.attach(to: pipeline, element: "peer", signal: "samples-selected")
            for name in ["ours", "peer"] where unlinked > 0 {
                let element = gst_bin_get_by_name(rc_bin(pipeline), name)!
                for _ in 0..<unlinked { gst_object_unref(gst_element_request_pad_simple(element, "sink_%u")) }
                gst_object_unref(element)
            }
        }, whilePlaying: { pipeline in
            whilePlaying?(pipeline)
            guard let latencyAfter else { return }
            Thread.sleep(forTimeInterval: latencyAfter)
            // A video aggregator's answer adds one output frame, and an output negotiated before
            // any input had a frame rate runs at 25/1 until the inputs' caps renegotiate it
            // (gstvideoaggregator.c fixates 25/1 then, and sets its latency when it renegotiates
            // on its own thread): both are asked once both output buffers last the inputs'
            // frame, and again until their answers agree, for at most 5 s more. The last
            // answers are compared.
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                let last = [recorders.ours.buffers.last?.duration, recorders.peer.buffers.last?.duration].compactMap { $0 }
                // Frame durations round to the nanosecond both ways (33333333, 33333334 at 30/1).
                let wanted = latencyDuration ?? last.first ?? 0
                if last.count == 2, last.allSatisfy({ max($0, wanted) - min($0, wanted) <= 1 }) { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            repeat {
                let answers = (ours: Self.latency(of: pipeline, element: "ours"), peer: Self.latency(of: pipeline, element: "peer"))
                latencies.withLock { $0 = ["ours": answers.ours, "peer": answers.peer].compactMapValues { $0 } }
                if let ours = answers.ours, let peer = answers.peer, ours == peer { break }
                Thread.sleep(forTimeInterval: 0.05)
            } while Date() < deadline
        })
        let answers = latencies.withLock { $0 }
        return Outcome(run: run,
                       ours: Side(buffers: recorders.ours.buffers, ended: recorders.ours.sawEOS, frames: grabbers.ours.frames, selected: selected.ours.count,
                                  latency: answers["ours"]),
                       peer: Side(buffers: recorders.peer.buffers, ended: recorders.peer.sawEOS, frames: grabbers.peer.frames, selected: selected.peer.count,
                                  latency: answers["peer"]))
    }

    private static func latency(of pipeline: UnsafeMutablePointer<GstElement>, element name: String) -> (live: Bool, min: UInt64)? {
        let element = gst_bin_get_by_name(rc_bin(pipeline), name)!
        defer { gst_object_unref(element) }
        let pad = gst_element_get_static_pad(element, "src")!
        defer { gst_object_unref(pad) }
        let query = gst_query_new_latency()!
        defer { gst_query_unref(query) }
        guard gst_pad_query(pad, query) != 0 else { return nil }
        var live: gboolean = 0
        var min: GstClockTime = 0
        gst_query_parse_latency(query, &live, &min, nil)
        return (live != 0, UInt64(min))
    }
}

/// Counts emissions of a signal of an element, from whichever thread emits it.
final class SignalCount: Sendable {
    private let emitted = Atomic<Int>(0)

    var count: Int { emitted.load(ordering: .acquiring) }

    /// samples-selected has seven arguments (element, segment, pts, dts, duration, info, data):
    /// the handler takes them all, as a C handler must.
    func attach(to bin: UnsafeMutablePointer<GstElement>, element name: String, signal: String) {
        let element = gst_bin_get_by_name(rc_bin(bin), name)!
        defer { gst_object_unref(element) }
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UInt64, UInt64,
                                     UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, _, _, _, _, data in
            Unmanaged<SignalCount>.fromOpaque(data!).takeUnretainedValue().emitted.add(1, ordering: .releasing)
        }
        g_signal_connect_data(element, signal, unsafeBitCast(handler, to: GCallback.self),
                              Unmanaged.passRetained(self).toOpaque(),
                              { data, _ in Unmanaged<SignalCount>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
    }
}
