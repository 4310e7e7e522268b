// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

extension Broadcast {
    /// What has gone through the broadcast so far; callable from any thread, at any time.
    public var traffic: BroadcastTraffic { core.traffic.snapshot }

    /// The RTMP outputs, in the pipeline's order (rtmp2sinks first): their state now.
    public var rtmpOutputs: [RTMPOutput] {
        let reported = core.reach.withLock { $0.outputs }
        return zip(core.rtmpSinks, reported).map { sinks, output in
            let sink = sinks.sink
            return RTMPOutput(element: output.element, location: output.location, reconnects: output.reconnects,
                              connection: output.reconnects ? Self.connection(sink) : nil,
                              reconnections: output.reconnects ? Int(ObjectProperties.uint(sink, "reconnections")) : 0,
                              bytesSent: output.reconnects ? 0 : Self.bytesSent(sink),
                              failed: output.failed, connected: output.connected, notConnected: output.notConnected,
                              bitrate: output.bitrate, bitrateChanges: output.bitrateChanges)
        }
    }

    /// The srtsinks, in the pipeline's order: their connections' statistics now.
    public var srtOutputs: [SRTOutput] { core.srtSinks.map(\.output) }

    /// The hlssink2s, in the pipeline's order.
    public var hlsOutputs: [HLSOutput] {
        BinElements.made(by: "hlssink2", in: pipeline).map { sink in
            HLSOutput(element: String(cString: rc_object_name(sink)),
                      playlist: ObjectProperties.string(sink, "playlist-location") ?? "",
                      segments: ObjectProperties.string(sink, "location") ?? "")
        }
    }

    private static func connection(_ sink: UnsafeMutablePointer<GstElement>) -> RTMPOutput.Connection? {
        guard let spec = g_object_class_find_property(rc_object_class(sink), "connection") else { return nil }
        let value = ObjectProperties.enumValue(sink, "connection", type: spec.pointee.value_type)
        let enumClass = g_type_class_ref(spec.pointee.value_type)
        defer { g_type_class_unref(enumClass) }
        let entry = g_enum_get_value(enumClass?.assumingMemoryBound(to: GEnumClass.self), value)
        return entry.flatMap { RTMPOutput.Connection(rawValue: String(cString: $0.pointee.value_nick)) }
    }

    /// rtmp2sink counts what it sent in its `stats` structure.
    private static func bytesSent(_ sink: UnsafeMutablePointer<GstElement>) -> Int {
        ObjectProperties.structure(sink, "stats") { stats in
            var bytes: guint64 = 0
            guard let stats, gst_structure_get_uint64(stats, "out-bytes-total", &bytes) != 0 else { return 0 }
            return Int(clamping: bytes)
        }
    }
}
