// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastKit

/// What the status displays show, gathered from bus messages and the probes.
struct BroadcastStatus {
    struct Meter {
        var source: String
        var reading: MeterReading
    }

    struct RTMPOutput {
        var sink: UnsafeMutablePointer<GstElement>
        var name: String
        var location: String
        /// An rtmpreconnectsink (it reports its connection); else an rtmp2sink.
        var reconnects: Bool
        var failure: String?
        /// rtmpreconnectsink: whether the server ever accepted the stream, and until it did,
        /// why the last attempt failed and how many had.
        var connected = false
        var notConnected: (reason: String, attempts: Int)?

        /// An rtmpreconnectsink that never reached its server and posted no error about it:
        /// the broadcast reached no one there, which the run must not call a success.
        var unreached: String? {
            guard reconnects, failure == nil, !connected else { return nil }
            let why = notConnected.map { "\($0.reason) (\($0.attempts) attempts)" } ?? "no answer from the server"
            return "never connected to \(location): \(why)"
        }
    }

    let title: String
    let started = Date()
    var meters: [Meter] = []
    var meterMessages = 0
    var segments = 0
    var broadcast = "starting"
    /// QoS drops per element: each reports its running total.
    var dropped: [String: UInt64] = [:]
    var rtmp: [RTMPOutput] = []

    init(title: String, pipeline: UnsafeMutablePointer<GstElement>) {
        self.title = title
        rtmp = [("rtmp2sink", false), ("rtmpreconnectsink", true)].flatMap { factory, reconnects in
            BinElements.made(by: factory, in: pipeline).map { sink in
                RTMPOutput(sink: sink, name: String(cString: rc_object_name(sink)),
                           location: ObjectProperties.string(sink, "location") ?? "?", reconnects: reconnects)
            }
        }
    }

    var elapsed: Double { Date().timeIntervalSince(started) }
    var droppedFrames: UInt64 { dropped.values.reduce(0, +) }

    mutating func update(_ message: UnsafeMutablePointer<GstMessage>, source: String) {
        switch message.pointee.type {
        case GST_MESSAGE_QOS:
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0, count: guint64 = 0
            gst_message_parse_qos_stats(message, &format, &processed, &count)
            if format == GST_FORMAT_BUFFERS || format == GST_FORMAT_DEFAULT { dropped[source] = UInt64(count) }
        case GST_MESSAGE_ERROR:
            if let index = rtmp.firstIndex(where: { $0.name == source }) { rtmp[index].failure = "failed" }
        case GST_MESSAGE_ELEMENT:
            guard let s = gst_message_get_structure(message) else { return }
            let name = String(cString: gst_structure_get_name(s))
            if let reading = MeterReading(s) {
                meterMessages += 1
                if let index = meters.firstIndex(where: { $0.source == source }) {
                    meters[index].reading = reading
                } else {
                    meters.append(Meter(source: source, reading: reading))
                }
            } else if name == "splitmuxsink-fragment-closed" {
                // hlssink2 1.22 posts nothing of its own per segment; its splitmuxsink does.
                segments += 1
            } else if name.hasPrefix("rtmp-"), let index = rtmp.firstIndex(where: { $0.name == source }) {
                noteConnection(name, s, output: index)
            } else if name.hasPrefix("replaykit-broadcast-") {
                let stage = name.dropFirst("replaykit-broadcast-".count)
                if stage != "event" { broadcast = stage == "started" || stage == "resumed" ? "live" : String(stage) }
            }
        default:
            break
        }
    }

    private mutating func noteConnection(_ name: String, _ s: UnsafePointer<GstStructure>, output index: Int) {
        switch name {
        case REPLAYCAST_MESSAGE_RTMP_CONNECTED:
            rtmp[index].connected = true
            rtmp[index].notConnected = nil
        case REPLAYCAST_MESSAGE_RTMP_RECONNECTING where !rtmp[index].connected:
            var attempt: guint64 = 0
            gst_structure_get_uint64(s, REPLAYCAST_FIELD_ATTEMPT, &attempt)
            let reason = gst_structure_get_string(s, REPLAYCAST_FIELD_REASON).map { String(cString: $0) } ?? "?"
            rtmp[index].notConnected = (reason, Int(attempt))
        default:
            break
        }
    }

    /// rtmp2sink's own counters say whether data reaches the server; rtmpreconnectsink says
    /// what its connection is doing and how often it came back, or why it has not connected.
    func rtmpState(_ output: RTMPOutput) -> String {
        if let failure = output.failure { return failure }
        if let (reason, attempts) = output.notConnected { return "not connected: \(reason), attempt \(attempts)" }
        if output.reconnects {
            return "\(Self.enumNick(output.sink, "connection")), \(Self.uintProperty(output.sink, "reconnections")) reconnections"
        }
        let sent = Self.bytesSent(output.sink)
        return sent > 0 ? String(format: "publishing, %.1f MB sent", Double(sent) / 1e6) : "connecting"
    }

    static var residentMemory: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "").map { $0 * 1024 }
    }

    private static func enumNick(_ object: UnsafeMutablePointer<GstElement>, _ name: String) -> String {
        guard let spec = g_object_class_find_property(rc_object_class(object), name) else { return "?" }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(object), name, &value)
        let enumClass = g_type_class_ref(spec.pointee.value_type)
        defer { g_type_class_unref(enumClass) }
        let entry = g_enum_get_value(enumClass?.assumingMemoryBound(to: GEnumClass.self), g_value_get_enum(&value))
        return entry.map { String(cString: $0.pointee.value_nick) } ?? "?"
    }

    private static func uintProperty(_ object: UnsafeMutablePointer<GstElement>, _ name: String) -> guint {
        var value = GValue()
        g_value_init(&value, rc_type_uint())
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(object), name, &value)
        return g_value_get_uint(&value)
    }

    private static func bytesSent(_ sink: UnsafeMutablePointer<GstElement>) -> UInt64 {
        var value = GValue()
        g_value_init(&value, gst_structure_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(sink), "stats", &value)
        guard let stats = g_value_get_boxed(&value)?.assumingMemoryBound(to: GstStructure.self) else { return 0 }
        var bytes: guint64 = 0
        return gst_structure_get_uint64(stats, "out-bytes-total", &bytes) != 0 ? UInt64(bytes) : 0
    }

}
