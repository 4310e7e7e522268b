// SPDX-License-Identifier: LGPL-2.1-or-later

/// Whether each srtsink reached its receiver. Up to GStreamer 1.24 srtsink posts an error
/// when its first connection fails; from 1.26 on it tries again for ever, posting a warning
/// per attempt ("Error on SRT socket: Connection timeout (16). Trying to reconnect", every
/// 3 s), so a broadcast to a receiver that is not there would run on and reach no one. As
/// rtmpreconnectsink gives up on a server it never reached, a broadcast gives up on an SRT
/// receiver after `attemptsBeforeGivingUp` failed attempts before its first packet left;
/// after a connection, srtsink's own reconnection is left alone. Bus thread only.
struct SRTReach {
    static let attemptsBeforeGivingUp = 3

    private struct Output {
        let sink: SRTSink
        var sent = false
        var attempts = 0
        var reason = ""
    }

    private var outputs: [Output]

    init(sinks: [SRTSink]) {
        outputs = sinks.map { Output(sink: $0) }
    }

    /// Some output has not sent its first packet yet, so `sample()` still has work.
    var waiting: Bool { outputs.contains { !$0.sent } }

    /// Notes which outputs have sent packets: libsrt counts them per connection, so this is
    /// asked often enough to see a connection before it could be lost.
    mutating func sample() {
        for index in outputs.indices where !outputs[index].sent {
            outputs[index].sent = outputs[index].sink.output.packetsSent > 0
        }
    }

    /// An srtsink's warning; the issue that ends the broadcast when it was the last attempt
    /// allowed at a receiver never reached.
    mutating func note(warning issue: BroadcastIssue) -> BroadcastIssue? {
        let retrying = ". Trying to reconnect"
        guard issue.message.hasSuffix(retrying),
              let index = outputs.firstIndex(where: { $0.sink.element == issue.element }) else {
            return nil
        }
        sample()
        guard !outputs[index].sent else { return nil }
        outputs[index].attempts += 1
        outputs[index].reason = String(issue.message.dropLast(retrying.count))
        return outputs[index].attempts >= Self.attemptsBeforeGivingUp ? Self.issue(outputs[index]) : nil
    }

    /// The first output that never sent a packet, as the issue that ends the broadcast.
    var unreached: BroadcastIssue? { outputs.first(where: { !$0.sent }).map(Self.issue) }

    private static func issue(_ output: Output) -> BroadcastIssue {
        let why = output.attempts > 0 ? "\(output.reason) (\(output.attempts) attempts)" : "no answer from the receiver"
        return .neverConnected(element: output.sink.element, target: output.sink.uri, why: why)
    }
}
