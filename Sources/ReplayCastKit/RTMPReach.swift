// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCast

/// Whether each rtmpreconnectsink reached its server. The element ends quietly on EOS while
/// it is still trying (a sink that waits for its server must), so a broadcast that ends
/// while one never connected reached no one there: that is a failure, not an end of stream.
struct RTMPReach {
    private struct Output {
        var location: String
        var connected = false
        var failed = false
        var lastFailure: (reason: String, attempts: Int)?
    }

    /// By element name, in the pipeline's order.
    private var outputs: [(name: String, output: Output)]

    init(pipeline: UnsafeMutablePointer<GstElement>) {
        outputs = BinElements.made(by: "rtmpreconnectsink", in: pipeline).map { sink in
            (String(cString: rc_object_name(sink)), Output(location: ObjectProperties.string(sink, "location") ?? ""))
        }
    }

    mutating func note(_ event: BroadcastEvent) {
        switch event {
        case .rtmp(let rtmp):
            guard let index = outputs.firstIndex(where: { $0.name == rtmp.element }) else { return }
            switch rtmp.change {
            case .connected:
                outputs[index].output.connected = true
            case .reconnecting(let attempt, _, _, let reason) where !outputs[index].output.connected:
                outputs[index].output.lastFailure = (reason, attempt)
            default:
                break
            }
        case .error(let issue):
            guard let index = outputs.firstIndex(where: { $0.name == issue.element }) else { return }
            outputs[index].output.failed = true
        default:
            break
        }
    }

    /// The first output that never connected and posted no error of its own, as the issue
    /// that ends the broadcast (a resource write error, as the element's own give-up is).
    var unreached: BroadcastIssue? {
        guard let (name, output) = outputs.first(where: { !$0.output.connected && !$0.output.failed }) else { return nil }
        let why = output.lastFailure.map { "\($0.reason) (\($0.attempts) attempts)" } ?? "no answer from the server"
        return BroadcastIssue(element: name, message: "never connected to \(output.location): \(why)", debug: nil,
                              domain: String(cString: g_quark_to_string(gst_resource_error_quark())),
                              code: Int(GST_RESOURCE_ERROR_WRITE.rawValue))
    }
}
