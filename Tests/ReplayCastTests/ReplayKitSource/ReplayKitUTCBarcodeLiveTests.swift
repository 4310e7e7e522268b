// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// barcode-time=utc: each frame's strip carries the real-time clock when it was captured.
@Suite(.serialized) struct ReplayKitUTCBarcodeLiveTests {
    /// 2 s live at 256x512: every stamp lies within the run's wall-clock span, and stamps
    /// advance as the timestamps do (a frame is captured as its slot comes on the clock).
    @Test func liveFramesCarryTheirCaptureTimeInUTC() throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1e9)
        let recorded = try RecordedBroadcast.record("width=256 height=512 duration=2000000000 barcode-time=utc",
                                                    live: true, pads: ["video"], timeout: 10, barcodes: (256, 512))
        let after = UInt64(Date().timeIntervalSince1970 * 1e9)
        let frames = recorded.video.buffers
        #expect(abs(frames.count - 60) <= 1, "\(frames.count) frames in 2 s")
        let stamps = frames.compactMap { frame in frame.note?.split(separator: " ").last.flatMap { UInt64($0) } }
        #expect(stamps.count == frames.count, "every strip reads")
        #expect(stamps.allSatisfy { (before ... after).contains($0) }, "stamps outside \(before)...\(after)")
        var worst = 0.0
        for index in frames.indices.dropFirst() where index < stamps.count {
            let wall = Double(stamps[index]) - Double(stamps[0])
            let media = Double(frames[index].pts) - Double(frames[0].pts)
            worst = max(worst, abs(wall - media) / 1e6)
        }
        // The first frame is captured as the clock starts; a busy machine may wake a task late.
        #expect(worst < 30, "capture time strays \(worst) ms from the timestamps")
    }
}
