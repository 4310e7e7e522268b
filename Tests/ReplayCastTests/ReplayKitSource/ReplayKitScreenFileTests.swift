// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import ReplayKitModel
import Testing

/// screen-location with a file GStreamer makes here: 1 s of videotestsrc's moving ball, 1 s of
/// a still checkerboard, 1 s of the ball again, 320x180 at 30 frames a second, losslessly
/// coded (x264 at quantizer 0), so the file holds 61 pictures that differ from the one
/// before: 30 + 1 + 30. Tests/system/screen_file.py does the same with ffmpeg's files
/// (variable frame rate, rotation).
@Suite(.serialized) struct ReplayKitScreenFileTests {
    static let width = 360, height = 640
    static func slot(_ k: Int) -> UInt64 { UInt64(k) * 1_000_000_000 / 30 }
    /// The slots of the file's pictures that differ from the one before.
    static let pictureSlots = (0..<30).map(slot) + [slot(30)] + (60..<90).map(slot)

    static func makeFile(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("screen.mov").path
        let raw = "video/x-raw,width=320,height=180,framerate=30/1"
        let run = try PipelineRun.run(
            "concat name=c ! videoconvert ! x264enc pass=quant quantizer=0 speed-preset=ultrafast ! qtmux ! filesink location=\(path) "
                + "videotestsrc num-buffers=30 pattern=ball ! \(raw) ! c. videotestsrc num-buffers=30 pattern=checkers-8 ! \(raw) ! c. "
                + "videotestsrc num-buffers=30 pattern=ball ! \(raw) ! c.")
        #expect(run.error == nil && run.reachedEOS)
        return path
    }

    /// Per frame: its barcode's frame number, the mean luma of the row through the middle and
    /// of the bottom row (the letterbox border).
    static func inspector() -> @Sendable (UnsafeRawBufferPointer) -> String? {
        { bytes in
            let stride = width
            guard bytes.count >= stride * height * 3 / 2, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return "short" }
            let number = BarcodeReader.read(yPlane: base, stride: stride, width: width, height: height).map { "\($0.frameNumber)" } ?? "unreadable"
            let mean = { (row: Int) in (0..<width).reduce(0) { $0 + Int(base[row * stride + $1]) } / width }
            return "\(number) \(mean(height / 2)) \(mean(height - 1))"
        }
    }

    static func record(_ properties: String, in folder: URL) throws -> RecordedBroadcast {
        let path = try makeFile(in: folder)
        return try RecordedBroadcast.record("width=\(width) height=\(height) screen-location=\(path) \(properties)", timeout: 60,
                                            inspectVideo: inspector())
    }

    @Test func aFrameComesOnlyWhenThePictureChanges() throws {
        let folder = try temporaryDirectory("screen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.record("file-end=finish", in: folder)
        #expect(run.run.error == nil && run.run.reachedEOS)
        let buffers = run.video.buffers
        #expect(buffers.map(\.pts) == Self.pictureSlots, "\(buffers.count) frames for 61 pictures")
        #expect(run.video.caps.count == 1 && run.video.caps[0].contains("format=(string)NV12, width=(int)360, height=(int)640"))
        #expect(buffers.allSatisfy { $0.size == 360 * 640 * 3 / 2 })
        let notes = buffers.compactMap(\.note).map { $0.split(separator: " ").map(String.init) }
        #expect(notes.map { $0[0] } == (0..<61).map { "\($0)" }, "every frame's barcode, numbered in order")
        // 320x180 fills 360x202 across the middle; the rows below are the border, black at full range.
        #expect(notes.allSatisfy { Int($0[2]) == 0 }, "bottom rows: \(Set(notes.map { $0[2] }))")
        let checkerboard = notes[30][1], ball = notes[0][1]
        #expect(Int(checkerboard)! > 100 && Int(ball)! < Int(checkerboard)!, "the middle row: checkerboard \(checkerboard), ball \(ball)")
        // The finish comes where the file ends: 3 s, on every pad.
        #expect(run.app.buffers.last.map { $0.pts + $0.duration } == 3_000_000_000)
        #expect(run.video.sawEOS && run.app.sawEOS && run.mic.sawEOS)
    }

    @Test func theFileStartsAgainWhereItEnds() throws {
        let folder = try temporaryDirectory("screen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.record("duration=5000000000", in: folder)
        #expect(run.run.error == nil && run.run.reachedEOS)
        // 3-5 s: the first 2 s of the file again, after its 3 s.
        let again = Self.pictureSlots.filter { $0 < 2_000_000_000 }.map { $0 + 3_000_000_000 }
        #expect(run.video.buffers.map(\.pts) == Self.pictureSlots + again)
    }

    @Test func syncMarksFlashOverTheFile() throws {
        let folder = try temporaryDirectory("screen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.record("file-end=finish sync-marks=true", in: folder)
        #expect(run.run.error == nil && run.run.reachedEOS)
        // The checkerboard is still from 1 s: its flash is one frame, and its end at 1.1 s another;
        // at 2 s the ball moves on under the flash, a frame per slot.
        #expect(run.video.buffers.map(\.pts) == (Self.pictureSlots + [Self.slot(33)]).sorted())
        let flashes = run.video.buffers.filter { $0.note.map { Int($0.split(separator: " ")[2])! == 255 } == true }
        #expect(flashes.map(\.pts) == [Self.slot(30), Self.slot(60), Self.slot(61), Self.slot(62)])
    }

    @Test func aTraceGivesTheTimesAndTheFileThePictures() throws {
        let folder = try temporaryDirectory("screen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.makeFile(in: folder)
        // Frames every 100 ms for 2 s: the picture on screen at each is the latest at or before it.
        var lines = [#"{"format":"replaycast-broadcast-trace","version":1}"#, #"{"lifecycle":"started"}"#]
        lines += (0..<20).map { k in
            #"{"sample":"video","pts":{"value":\#(k),"timescale":10},"width":360,"height":640,"pixelFormat":"420f","orientation":1}"#
        }
        let trace = folder.appendingPathComponent("tenth.trace").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let run = try RecordedBroadcast.record("trace=\(trace) screen-location=\(path)", timeout: 60, inspectVideo: Self.inspector())
        #expect(run.run.error == nil && run.run.reachedEOS)
        #expect(run.video.buffers.map(\.pts) == (0..<20).map { UInt64($0) * 100_000_000 })
        let notes = run.video.buffers.compactMap { $0.note?.split(separator: " ").map(String.init) }
        #expect(notes.map { $0[0] } == (0..<20).map { "\($0)" })
        // The same pictures as without the trace: the file's at 0, 100, … 900 ms, then the checkerboard.
        let plain = try RecordedBroadcast.record("width=\(Self.width) height=\(Self.height) screen-location=\(path) file-end=finish",
                                                 timeout: 60, inspectVideo: Self.inspector())
        var middleAt: [UInt64: String] = [:]
        for buffer in plain.video.buffers { middleAt[buffer.pts] = buffer.note?.split(separator: " ").map(String.init)[1] }
        let expected = (0..<20).map { k in middleAt[k < 10 ? Self.slot(3 * k) : Self.slot(30)] ?? "none" }
        #expect(notes.map { $0[1] } == expected)
    }

    /// examples/screen/screen-recording.mov: ffmpeg's x264 with B-frames, so an edit list
    /// starts the segment at 66666666 ns and every other picture lands 1 ns past its slot;
    /// 30 moving pictures, 2 s still (dropped from the file: variable frame rate), 30 more.
    @Test func containerRoundingKeepsPicturesInTheirSlots() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/screen/screen-recording.mov").path
        let run = try RecordedBroadcast.record("width=296 height=640 screen-location=\(example) file-end=finish", timeout: 60)
        #expect(run.run.error == nil && run.run.reachedEOS)
        #expect(run.video.buffers.map(\.pts) == (0..<30).map(Self.slot) + (90..<120).map(Self.slot))
    }

    @Test func aFileThatCannotBeShownStopsTheStartNamingIt() throws {
        let folder = try temporaryDirectory("screen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sound = folder.appendingPathComponent("sound.wav").path
        _ = try PipelineRun.run("audiotestsrc num-buffers=10 ! wavenc ! filesink location=\(sound)")
        let missing = folder.appendingPathComponent("missing.mov").path
        for (properties, words) in [("screen-location=\(missing)", ["screen-location \(missing): cannot be read: No such file or directory"]),
                                    ("screen-location=\(sound)", ["screen-location \(sound): holds no video, only sound ("]),
                                    ("screen-location=\(sound) num-frames=10", ["num-frames cannot be combined with screen-location"])] {
            let run = try RecordedBroadcast.record(properties)
            let text = run.run.error?.text ?? ""
            #expect(words.allSatisfy { text.contains($0) }, "\(properties): \(text)")
            #expect(run.video.buffers.isEmpty)
        }
    }
}
