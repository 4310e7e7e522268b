// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// What each RTMP output's messages said: whether it reached its server, failed, why its
/// attempts failed until it connected, and the last bitrate adaptive-bitrate set. Kept by the bus thread, read by any.
/// rtmpreconnectsink ends quietly on EOS while it is still trying (a sink that waits for its
/// server must), so a broadcast that ends while one never connected reached no one there:
/// that is a failure, not an end of stream.
struct RTMPReach: Sendable {
    struct Output: Sendable {
        var element: String
        var location: String
        var reconnects: Bool
        var connected = false
        var failed = false
        var notConnected: RTMPOutput.Attempts?
        var bitrate: BitrateChange?
        var bitrateChanges = 0
    }

    /// In the pipeline's order: the rtmp2sinks, then the rtmpreconnectsinks.
    private(set) var outputs: [Output]

    /// Every RTMP sink in `pipeline` (any depth), and whether it is an rtmpreconnectsink.
    static func sinks(in pipeline: UnsafeMutablePointer<GstElement>) -> [(sink: UnsafeMutablePointer<GstElement>, reconnects: Bool)] {
        [("rtmp2sink", false), ("rtmpreconnectsink", true)].flatMap { factory, reconnects in
            BinElements.made(by: factory, in: pipeline).map { ($0, reconnects) }
        }
    }

    init(sinks: [(sink: UnsafeMutablePointer<GstElement>, reconnects: Bool)]) {
        outputs = sinks.map { sink, reconnects in
            Output(element: String(cString: rc_object_name(sink)), location: PublishTransport.shown(ObjectProperties.string(sink, "location") ?? ""),
                   reconnects: reconnects)
        }
    }

    mutating func note(_ event: BroadcastEvent) {
        switch event {
        case .rtmp(let rtmp):
            guard let index = outputs.firstIndex(where: { $0.element == rtmp.element }) else { return }
            switch rtmp.change {
            case .connected:
                outputs[index].connected = true
                outputs[index].notConnected = nil
            case .reconnecting(let attempt, _, _, let reason) where !outputs[index].connected:
                outputs[index].notConnected = RTMPOutput.Attempts(reason: reason, count: attempt)
            case .bitrateChanged(let change):
                outputs[index].bitrate = change
                outputs[index].bitrateChanges += 1
            default:
                break
            }
        case .error(let issue):
            guard let index = outputs.firstIndex(where: { $0.element == issue.element }) else { return }
            outputs[index].failed = true
        default:
            break
        }
    }

    /// The first unreached output, as the issue that ends the broadcast.
    var unreached: BroadcastIssue? {
        guard let output = outputs.first(where: { $0.reconnects && !$0.connected && !$0.failed }) else { return nil }
        let why = output.notConnected.map { "\($0.reason) (\($0.count) attempts)" } ?? "no answer from the server"
        return .neverConnected(element: output.element, target: output.location, why: why)
    }
}
