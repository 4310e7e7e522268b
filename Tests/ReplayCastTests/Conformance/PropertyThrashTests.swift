// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

/// Every writable property of each element (and of its pads) written 3000 times with
/// legal values, seeded, from the test thread while the pipeline plays in real time on its
/// own threads: the run ends in EOS without an error, its output keeps its timing and
/// size, and what does not depend on the properties (a meter's pass-through, a capture
/// whose settings apply from the next start) is the same as in a run left alone.
@Suite struct PropertyThrashTests {
    static let writes = 3000
    static let audio = "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"

    struct Thrashed {
        var run: PipelineRun
        var out: PadRecorder
        var written: [String: Int]
        var skipped: Set<String>
        /// Where the pipeline was when the last write was made, and where it ended.
        var positionAtLastWrite: UInt64
        var end: UInt64
    }

    /// Plays `description` (its sink named "out"); with `targets` set, writes into the
    /// properties of the elements and pads they name ("el" or "el.pad") while it plays.
    /// `settle` runs after the writes, to set back a value that would rightly keep the run
    /// from ending.
    static func play(_ description: String, targets: [String] = [], strings: [String: [String]] = [:],
                     settle: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil, seed: UInt64 = 1) throws -> Thrashed {
        let out = PadRecorder(inspect: { bytes in String(bytes.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }) })
        var written: [String: Int] = [:]
        var skipped: Set<String> = []
        var position: gint64 = -1
        let run = try PipelineRun.run(description, timeout: 20, prepare: { pipeline in
            out.attach(to: pipeline, element: "out", pad: "sink")
        }, whilePlaying: { pipeline in
            guard !targets.isEmpty else { return }
            let objects = targets.map { object(in: pipeline, $0) }
            defer { objects.forEach { gst_object_unref($0) } }
            var thrash = PropertyThrash(objects.map { rc_gobject($0) }, strings: strings, seed: seed)
            skipped = thrash.properties().skipped
            written = thrash.run(count: writes, pause: 0.002)
            settle?(pipeline)
            let sink = gst_bin_get_by_name(rc_bin(pipeline), "out")!
            _ = gst_element_query_position(sink, GST_FORMAT_TIME, &position)
            gst_object_unref(sink)
        })
        let end = out.buffers.last.map { $0.pts + $0.duration } ?? 0
        return Thrashed(run: run, out: out, written: written, skipped: skipped, positionAtLastWrite: UInt64(max(position, 0)), end: end)
    }

    /// "el" is the element named el, "el.pad" its pad (a new reference either way).
    static func object(in pipeline: UnsafeMutablePointer<GstElement>, _ path: String) -> gpointer {
        let parts = path.split(separator: ".").map(String.init)
        let element = gst_bin_get_by_name(rc_bin(pipeline), parts[0])!
        guard parts.count == 2 else { return gpointer(element) }
        defer { gst_object_unref(element) }
        return gpointer(gst_element_get_static_pad(element, parts[1])!)
    }

    /// `properties`: how many writable properties the targets have between them, by name;
    /// `skipped`: those without a range to draw from (strings without given choices).
    static func expectThrashedWhilePlaying(_ t: Thrashed, _ label: String, properties: Int, skipped: Set<String> = []) {
        #expect(t.run.error == nil && t.run.reachedEOS, "\(label): \(t.run.error.map { "\($0)" } ?? "no EOS")")
        #expect(t.written.values.reduce(0, +) == writes, "\(label): \(t.written)")
        #expect(t.skipped == skipped, "\(label): not written: \(t.skipped.sorted())")
        #expect(t.written.count + t.skipped.count == properties,
                "\(label): every writable property written: \(t.written.keys.sorted())")
        #expect(t.positionAtLastWrite > 0 && t.positionAtLastWrite < t.end,
                "\(label): the last write at \(t.positionAtLastWrite) ns, before the end at \(t.end) ns")
    }

    /// No buffer count: the writes pick the buffers' duration (dualmixer's output-buffer-duration,
    /// 1 ms to 1 s). The first buffer's start and the last one's end anchor the chain instead, so
    /// an empty or cut-short list fails.
    static func expectContiguous(_ buffers: [PadRecorder.BufferRecord], from start: UInt64, to end: UInt64, _ label: String) {
        #expect(buffers.first?.pts == start, "\(label): first at \(buffers.first?.pts ?? 0)")
        #expect(zip(buffers, buffers.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts }, "\(label): contiguous")
        #expect(buffers.last.map { $0.pts + $0.duration } == end, "\(label): ends at \(end) ns")
    }

    @Test func volumemeterPassesAudioThroughUnchangedAndMeasures() throws {
        let description = "audiotestsrc num-buffers=75 samplesperbuffer=960 ! \(Self.audio) ! volumemeter name=el ! fakesink sync=true name=out"
        let alone = try Self.play(description)
        let thrashed = try Self.play(description, targets: ["el"])
        Self.expectThrashedWhilePlaying(thrashed, "volumemeter", properties: 8)
        #expect(thrashed.out.buffers.count == 75)
        #expect(thrashed.out.buffers == alone.out.buffers, "the same bytes at the same times")
        let meters = thrashed.run.messages(from: "el", named: "volumemeter")
        let values = meters.flatMap { $0.doubles("rms") + $0.doubles("peak") + $0.doubles("decay") }
        #expect(!meters.isEmpty && values.count >= meters.count * 6)
        #expect(values.allSatisfy { $0 <= 0.01 && !$0.isNaN }, "levels in dBFS: \(values.filter { $0 > 0.01 || $0.isNaN })")
        print("volumemeter thrash: \(thrashed.written), \(meters.count) messages")
    }

    @Test func dualmixerMixesEveryMillisecond() throws {
        let description = "audiotestsrc num-buffers=50 samplesperbuffer=960 ! \(Self.audio) ! el.app "
            + "audiotestsrc num-buffers=50 samplesperbuffer=441 wave=pink-noise ! audio/x-raw,rate=44100,channels=1 ! el.mic "
            + "dualmixer name=el ! fakesink sync=true name=out"
        let thrashed = try Self.play(description, targets: ["el", "el.app", "el.mic"])
        Self.expectThrashedWhilePlaying(thrashed, "dualmixer", properties: 11)
        let buffers = thrashed.out.buffers
        Self.expectContiguous(buffers, from: 0, to: 1_000_000_000, "dualmixer")
        let bytesPerSecond = buffers.map { Double($0.size) * 1e9 / Double($0.duration) }
        #expect(Set(bytesPerSecond.map { Int($0.rounded()) }).count == 1, "every buffer is 48 kHz stereo: \(Set(bytesPerSecond))")
        print("dualmixer thrash: \(thrashed.written), \(buffers.count) buffers")
    }

    @Test func pipcompositorDrawsEveryFrame() throws {
        let description = "videotestsrc num-buffers=30 ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! el.sink_0 "
            + "videotestsrc num-buffers=30 pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! el.sink_1 "
            + "pipcompositor name=el ! fakesink sync=true name=out"
        // As in compositor, a run whose pads all repeat their last frame after EOS never ends.
        let thrashed = try Self.play(description, targets: ["el", "el.sink_0", "el.sink_1"],
                                     settle: { pipeline in
            for pad in ["sink_0", "sink_1"] { setPadProperty(pipeline, element: "el", pad: pad, "repeat-after-eos", "false") }
        })
        let buffers = thrashed.out.buffers
        Self.expectThrashedWhilePlaying(thrashed, "pipcompositor", properties: 25)
        #expect(buffers.count == 30 && buffers.allSatisfy { $0.size == 160 * 120 * 3 / 2 }, "\(buffers.count) frames: \(buffers.prefix(3))")
        #expect(buffers.enumerated().allSatisfy { $0.element.pts == UInt64($0.offset) * 1_000_000_000 / 30 })
        print("pipcompositor thrash: \(thrashed.written)")
    }

    /// replaykitsrc's settings apply from the next start, so a broadcast written into while
    /// it runs is the broadcast it started as.
    @Test func replaykitsrcRunsTheBroadcastItStarted() throws {
        // A width whose rows need no padding, so the bytes compared are all picture.
        let description = "replaykitsrc name=el is-live=false duration=2000000000 width=320 height=640 "
            + "el.video ! fakesink sync=true name=out el.audio_app ! fakesink el.audio_mic ! fakesink"
        let strings = ["activity": ["animated", "static", "busy:200ms,idle:300ms"],
                       "schedule": ["", "500ms:pause; 700ms:resume", "300ms:orientation=right; 600ms:call-start"],
                       "setup-info": ["", "setup,broadcastName=thrash"],
                       // Files are read at the next start only: none is opened while playing.
                       "trace": ["", "/nonexistent/thrash.trace"], "app-location": ["", "/nonexistent/app.m4a"],
                       "mic-location": ["", "/nonexistent/mic.wav"], "screen-location": ["", "/nonexistent/screen.mov"]]
        let alone = try Self.play(description)
        let thrashed = try Self.play(description, targets: ["el"], strings: strings)
        Self.expectThrashedWhilePlaying(thrashed, "replaykitsrc", properties: 26)
        #expect(alone.out.buffers.count == 60)
        let differ = zip(thrashed.out.buffers, alone.out.buffers).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(thrashed.out.buffers == alone.out.buffers,
                "the same frames at the same times: \(thrashed.out.buffers.count) vs \(alone.out.buffers.count), first differing \(String(describing: differ))")
        print("replaykitsrc thrash: \(thrashed.written)")
    }

    /// rtmpreconnectsink's reconnection policy (retries, delays, backoff, what to keep while
    /// disconnected) written while it streams to a real nginx-rtmp: the connection it made
    /// at the start is neither dropped nor made again, and every frame reaches the server.
    @Test func rtmpreconnectsinkKeepsItsConnection() throws {
        let server = try RtmpServer()
        defer { server.stop() }
        let description = "videotestsrc num-buffers=60 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
            + "! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! h264parse ! el.video "
            + "t. ! queue ! fakesink sync=true name=out "
            + "rtmpreconnectsink name=el location=\(server.url("thrash"))"
        // location applies from the next start: the only valid value here is the server's own.
        let thrashed = try Self.play(description, targets: ["el"], strings: ["location": [server.url("thrash")]])
        Self.expectThrashedWhilePlaying(thrashed, "rtmpreconnectsink", properties: 10)
        #expect(thrashed.out.buffers.count == 60)
        #expect(thrashed.run.messages(from: "el", named: "rtmp-connected").count == 1)
        for lost in ["rtmp-disconnected", "rtmp-reconnecting", "rtmp-reconnected"] {
            #expect(thrashed.run.messages(from: "el", named: lost).isEmpty, "\(lost) while connected")
        }
        server.stop()
        let probe = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                        "-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0",
                                                        server.recording("thrash").path])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,60", "the recording: \(probe.output)")
        print("rtmpreconnectsink thrash: \(thrashed.written)")
    }

    /// The same over SRT, to a real srt-live-transmit: one connection, every frame recorded.
    @Test func rtmpreconnectsinkKeepsItsSrtConnection() throws {
        let receiver = try SrtReceiver()
        defer { receiver.stop() }
        let description = "videotestsrc num-buffers=60 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
            + "! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! h264parse ! el.video "
            + "t. ! queue ! fakesink sync=true name=out "
            + "rtmpreconnectsink name=el location=\(receiver.url)"
        let thrashed = try Self.play(description, targets: ["el"], strings: ["location": [receiver.url]])
        Self.expectThrashedWhilePlaying(thrashed, "rtmpreconnectsink over SRT", properties: 10)
        #expect(thrashed.out.buffers.count == 60)
        #expect(thrashed.run.messages(from: "el", named: "rtmp-connected").count == 1)
        for lost in ["rtmp-disconnected", "rtmp-reconnecting", "rtmp-reconnected"] {
            #expect(thrashed.run.messages(from: "el", named: lost).isEmpty, "\(lost) while connected")
        }
        // srt-live-transmit writes out what it holds once the caller is gone.
        usleep(500_000)
        receiver.stop()
        let probe = try runCommand("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                        "-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0",
                                                        receiver.recording(1).path])
        // MPEG-TS lists the stream under its program too.
        #expect(Set(probe.output.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) })
            == ["h264,60"], "the recording: \(probe.output)")
        #expect(!FileManager.default.fileExists(atPath: receiver.recording(2).path), "one connection")
        print("rtmpreconnectsink over SRT thrash: \(thrashed.written)")
    }
}
