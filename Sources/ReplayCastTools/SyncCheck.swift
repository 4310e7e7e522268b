// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import ReplayCastKit
import ReplayKitModel

public typealias SyncMarkReport = SyncMarkDetector.Report
public typealias FramePacing = ReplayKitModel.FramePacing

/// Measures audio against video in an output made with `replaykitsrc sync-marks=true` (an
/// HLS playlist, an FLV or MP4 file, a URI): each mark's flash and click, paired, and every
/// frame's number from its barcode strip for the frame pacing. The output is decoded as fast
/// as it can be, through a `Broadcast`.
public enum SyncCheck {
    /// What the output holds.
    public struct Findings: Sendable {
        /// The marks, paired, and the flashes and clicks without a partner.
        public var marks: SyncMarkReport
        /// Every decoded frame's number: repeats, gaps, freezes.
        public var pacing: FramePacing
        public var videoFrames: Int
        public var audioSeconds: Double
    }

    /// Why the output could not be measured: `<output>: <reason>`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Decodes `output` to its end. Fails at once when it lacks a video or an audio stream
    /// ("the output has no video stream"), and after `timeout` of decoding.
    public static func measure(_ output: String, timeout: Duration = .seconds(120)) async throws(Failure) -> Findings {
        gst_init(nil, nil)
        if !output.contains("://"), !FileManager.default.fileExists(atPath: output) {
            throw Failure(description: "\(output): no such file")
        }
        let broadcast: Broadcast
        do {
            broadcast = try Broadcast(description: SyncReading.decoder(uri: uri(output)))
        } catch {
            throw Failure(description: error.description)
        }
        let reading = SyncReading(pipeline: broadcast.pipeline)
        broadcast.startWithoutWaiting()
        guard let ending = await endingWithin(timeout, broadcast) else {
            throw Failure(description: "\(output): no end of stream after \(timeout.seconds) s")
        }
        switch ending {
        case .endOfStream: return reading.findings
        case .failed(let issue): throw Failure(description: "\(output): \(issue)")
        case .timedOut, .cancelled: throw Failure(description: "\(output): the decoding was stopped (\(ending))")
        }
    }

    /// How the broadcast ended, or nil when it ran longer than `timeout` (it is cancelled then).
    private static func endingWithin(_ timeout: Duration, _ broadcast: Broadcast) async -> BroadcastEnding? {
        await withTaskGroup(of: BroadcastEnding?.self) { group in
            group.addTask { await broadcast.waitUntilEnded() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            // The waiting task returns only once the broadcast has ended.
            if first == nil { await broadcast.cancel() }
            group.cancelAll()
            return first
        }
    }

    private static func uri(_ output: String) -> String {
        if output.contains("://") { return output }
        guard let converted = gst_filename_to_uri(output, nil) else { return output }
        defer { g_free(converted) }
        return String(cString: converted)
    }
}
