// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// screen-location live: the decoder runs ahead on its own threads, so the pictures go out as
/// their slots come on the clock, never waiting for a decode.
@Suite(.serialized) struct ReplayKitScreenFileLiveTests {
    /// The 3 s file of `ReplayKitScreenFileTests` live, with barcode-time=utc: every picture in
    /// a slot, each frame captured (its UTC stamp) when its timestamp says.
    @Test func picturesGoOutInTheirSlotsOnTheClock() throws {
        let folder = try temporaryDirectory("screen-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try ReplayKitScreenFileTests.makeFile(in: folder)
        let (width, height) = (ReplayKitScreenFileTests.width, ReplayKitScreenFileTests.height)
        let recorded = try RecordedBroadcast.record("width=\(width) height=\(height) screen-location=\(path) file-end=finish barcode-time=utc",
                                                    live: true, pads: ["video"], timeout: 15, barcodes: (width, height))
        #expect(recorded.run.error == nil && recorded.run.reachedEOS)
        let frames = recorded.video.buffers
        // 61 pictures; a picture decoded after its slot shares the next one with its successor.
        #expect((58...61).contains(frames.count), "\(frames.count) frames for 61 pictures")
        let origin = try #require(frames.first).pts
        let offGrid = frames.filter { frame in
            let slots = Double(frame.pts - origin) * 30 / 1e9
            return abs(slots - slots.rounded()) > 1e-4
        }
        #expect(offGrid.isEmpty, "\(offGrid.count) frames between slots")
        let stamps = frames.compactMap { $0.note?.split(separator: " ").last.flatMap { UInt64($0) } }
        #expect(stamps.count == frames.count, "every strip reads")
        var worst = 0.0
        for index in frames.indices.dropFirst() where index < stamps.count {
            let wall = Double(stamps[index]) - Double(stamps[0])
            let media = Double(frames[index].pts) - Double(origin)
            worst = max(worst, abs(wall - media) / 1e6)
        }
        #expect(worst < 30, "capture time strays \(worst) ms from the timestamps")
    }
}
