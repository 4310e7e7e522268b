// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

/// Where the output ends when the main picture ends while a PiP goes on: with the main
/// input's last frame, not one output frame later showing it again.
@Suite struct PipCompositorEndOfStreamTests {
    /// The main input starts `offset` ns after the 30 fps output grid (replaykitsrc's screen
    /// starts about 0.2 ms after it), and a PiP runs on for 40 frames.
    static func outputFrames(mainFrames: Int, rate: String, offset: Int) throws -> [UInt64] {
        let description = "videotestsrc num-buffers=\(mainFrames) timestamp-offset=\(offset) "
            + "! video/x-raw,format=NV12,width=64,height=48,framerate=\(rate) ! pip.sink_0 "
            + "videotestsrc num-buffers=40 pattern=ball ! video/x-raw,format=NV12,width=16,height=12,framerate=30/1 "
            + "! pip.sink_1 pipcompositor name=pip ! video/x-raw,framerate=30/1 ! fakesink name=out"
        return try PipCompositorPixelTests.frames(description)["out"]!.map(\.pts)
    }

    @Test(arguments: [
        // The last main frame reaches 0.2 ms into the next output frame: the output ends
        // with it (it used to be shown once more).
        (10, "30/1", 200_000, 10),
        // At 15 fps each main frame covers two output frames, the last one too.
        (5, "15/1", 200_000, 10),
        // The last main frame covers 20 of the next output frame's 33.3 ms, more than half:
        // that frame is made.
        (10, "30/1", 20_000_000, 11),
    ])
    func outputEndsWithTheMainPicture(mainFrames: Int, rate: String, offset: Int, expected: Int) throws {
        let pts = try Self.outputFrames(mainFrames: mainFrames, rate: rate, offset: offset)
        #expect(pts.count == expected, "\(pts.count) output frames for \(mainFrames) main frames at \(rate), offset \(offset) ns")
        for (index, time) in pts.enumerated() {
            #expect(time == UInt64(index) * 1_000_000_000 / 30, "frame \(index) at \(time) ns")
        }
    }
}
