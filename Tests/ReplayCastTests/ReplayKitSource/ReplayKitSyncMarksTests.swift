// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import ReplayKitModel
import Testing

/// replaykitsrc sync-marks=true: the flash and the silence-then-click reach the pads at the
/// documented capture times, on a still screen too.
@Suite struct ReplayKitSyncMarksTests {
    static let side = 256

    /// "white" when every luma byte below the barcode strip is 255, else "screen".
    static let flashNote: @Sendable (UnsafeRawBufferPointer) -> String? = { bytes in
        let stride = (side + 3) / 4 * 4
        let top = FrameBarcode.height(forWidth: side)
        let luma = bytes.prefix(stride * side).dropFirst(stride * top)
        return luma.allSatisfy { $0 == 255 } ? "white" : "screen"
    }

    /// "silent" for a buffer of digital silence.
    static let silenceNote: @Sendable (UnsafeRawBufferPointer) -> String? = { bytes in
        bytes.allSatisfy { $0 == 0 } ? "silent" : nil
    }

    static func record(marks: Bool) throws -> (video: [PadRecorder.BufferRecord], app: [UInt64], mic: [UInt64]) {
        let description = "replaykitsrc name=rk is-live=false activity=static width=\(side) height=\(side) "
            + "sync-marks=\(marks) duration=2500000000 "
            + "rk.video ! fakesink rk.audio_app ! fakesink rk.audio_mic ! fakesink"
        let video = PadRecorder(inspect: flashNote), app = PadRecorder(inspect: silenceNote), mic = PadRecorder(inspect: silenceNote)
        let run = try PipelineRun.run(description, timeout: 30, prepare: { pipeline in
            video.attach(to: pipeline, element: "rk", pad: "video")
            app.attach(to: pipeline, element: "rk", pad: "audio_app")
            mic.attach(to: pipeline, element: "rk", pad: "audio_mic")
        })
        #expect(run.error == nil && run.reachedEOS)
        let silent = { (recorder: PadRecorder) in recorder.buffers.filter { $0.note == "silent" }.map(\.pts) }
        return (video.buffers, silent(app), silent(mic))
    }

    @Test func flashesAndSilencesFallOnTheMarks() throws {
        let recorded = try Self.record(marks: true)
        // A still screen gives frame 0 only; the marks add the flash's start and end.
        #expect(recorded.video.map(\.pts) == [0, 1_000_000_000, 1_100_000_000, 2_000_000_000, 2_100_000_000])
        #expect(recorded.video.map(\.note) == ["screen", "white", "screen", "white", "screen"])
        for (name, starts) in [("app", recorded.app), ("mic", recorded.mic)] {
            // 100 ms of silence before each mark holds at least three whole 1024-frame buffers.
            let beforeFirst = starts.filter { (900_000_000 ..< 1_000_000_000).contains($0) }
            let beforeSecond = starts.filter { (1_900_000_000 ..< 2_000_000_000).contains($0) }
            #expect(beforeFirst.count >= 3 && beforeSecond.count >= 3, "\(name): silent buffers at \(starts)")
            #expect(beforeFirst.count + beforeSecond.count == starts.count, "\(name): silence elsewhere: \(starts)")
        }
    }

    @Test func withoutMarksNothingFlashesOrFallsSilent() throws {
        let recorded = try Self.record(marks: false)
        #expect(recorded.video.map(\.pts) == [0])
        #expect(recorded.app.isEmpty && recorded.mic.isEmpty)
    }
}
