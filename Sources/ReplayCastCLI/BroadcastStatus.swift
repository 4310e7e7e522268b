// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit

/// What the status displays show: gathered from the broadcast's events, with its traffic
/// and RTMP and SRT outputs as they were at the last refresh.
struct BroadcastStatus {
    struct Meter {
        var source: String
        var reading: MeterReading
    }

    let title: String
    let started = Date()
    var meters: [Meter] = []
    var meterMessages = 0
    var segments = 0
    private var newestSegment: [String: Int] = [:]
    var broadcast = "starting"
    var traffic = BroadcastTraffic()
    var rtmp: [RTMPOutput] = []
    var srt: [SRTOutput] = []

    init(title: String) {
        self.title = title
    }

    var elapsed: Double { Date().timeIntervalSince(started) }

    var bitrate: Double { traffic.bitrate(over: .seconds(elapsed)) }

    mutating func note(_ event: BroadcastEvent) {
        switch event {
        case .meter(let reading):
            meterMessages += 1
            if let index = meters.firstIndex(where: { $0.source == reading.element }) {
                meters[index].reading = reading
            } else {
                meters.append(Meter(source: reading.element, reading: reading))
            }
        case .segmentWritten(let segment):
            // llhlssink's renditions each list a segment of the same number: one is counted.
            if segment.index > newestSegment[segment.element, default: -1] {
                newestSegment[segment.element] = segment.index
                segments += 1
            }
        case .started, .resumed:
            broadcast = "live"
        case .paused:
            broadcast = "paused"
        case .finished:
            broadcast = "finished"
        default:
            break
        }
    }

    /// libsrt's view of the connection: how fast, how far, and what the network cost.
    func srtState(_ output: SRTOutput) -> String {
        guard output.packetsSent > 0 else { return "connecting" }
        return String(format: "%.2f Mb/s, rtt %.1f ms, lost %d, retransmitted %d, dropped %d", output.sendRateMbps,
                      output.roundTripMilliseconds, output.packetsLost, output.packetsRetransmitted, output.packetsDropped)
    }

    /// What an rtmpreconnectsink or rtmp2sink publishes: rtmpreconnectsink does SRT as well.
    func scheme(_ output: RTMPOutput) -> String { output.location.hasPrefix("srt://") ? "SRT" : "RTMP" }

    /// rtmp2sink's own counters say whether data reaches the server; rtmpreconnectsink says
    /// what its connection is doing and how often it came back, or why it has not connected.
    func rtmpState(_ output: RTMPOutput) -> String {
        if output.failed { return "failed" }
        if let attempts = output.notConnected { return "not connected: \(attempts.reason), attempt \(attempts.count)" }
        if output.reconnects {
            let state = "\(output.connection?.rawValue ?? "?"), \(output.reconnections) reconnections"
            guard let bitrate = output.bitrate else { return state }
            return state + ", video \(bitrate.new) kb/s (\(output.bitrateChanges) changes, last: \(bitrate.congested ? "congested" : "recovered"))"
        }
        return output.bytesSent > 0 ? String(format: "publishing, %.1f MB sent", Double(output.bytesSent) / 1e6) : "connecting"
    }
}
