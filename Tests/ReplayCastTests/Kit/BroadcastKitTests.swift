// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastKit
import ReplayCastSupport
import ReplayCastTools
import Testing

/// ReplayCastKit's bad-use errors and controls that need no real time.
@Suite struct BroadcastKitTests {
    init() { GStreamerSetup.ensure() }

    @Test func pipelineFileErrorsNameTheFileAndLine() throws {
        let folder = try temporaryDirectory("kit-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("test.pipeline").path
        #expect(throws: BroadcastError.pipelineFile("\(file): cannot read the file")) {
            try Broadcast(pipelineFile: file)
        }
        try "# a comment\naudiotestsrc ! volumemeter\n  ! ${SINK} \n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: BroadcastError.pipelineFile("\(file):3: ${SINK} has no value: give the variable SINK a value")) {
            try Broadcast(pipelineFile: file)
        }
        #expect(throws: BroadcastError.missingElement("nosuchsink", location: "\(file):3")) {
            try Broadcast(pipelineFile: file, variables: ["SINK": "nosuchsink"])
        }
        _ = try Broadcast(pipelineFile: file, variables: ["SINK": "fakesink"])
    }

    @Test func aMissingElementIsNamed() {
        #expect(throws: BroadcastError.missingElement("volumemeterr", location: nil)) {
            try Broadcast(description: "audiotestsrc ! volumemeterr ! fakesink")
        }
        #expect(BroadcastError.missingElement("volumemeterr", location: nil).description
                == "no element \"volumemeterr\": neither ReplayCast nor an installed GStreamer plugin has it")
    }

    @Test func aBroadcastStartsOnceAndIsControlledOnlyWhileRunning() async throws {
        let broadcast = try Broadcast(description: "audiotestsrc num-buffers=20 ! volumemeter ! fakesink")
        #expect(throws: BroadcastError.notRunning("pause")) { try broadcast.pause() }
        await #expect(throws: BroadcastError.notRunning("stop")) { try await broadcast.stop() }
        try await broadcast.start()
        await #expect(throws: BroadcastError.alreadyStarted) { try await broadcast.start() }
        #expect(await broadcast.waitUntilEnded() == .endOfStream)
        // Ended by itself after 20 buffers: controls are refused, a stop reports the end.
        #expect(throws: BroadcastError.notRunning("resume")) { try broadcast.resume() }
        await #expect(throws: BroadcastError.alreadyStarted) { try await broadcast.start() }
        #expect(try await broadcast.stop() == .endOfStream)
        let meters = await broadcast.events.reduce(0) { count, event in if case .meter = event { count + 1 } else { count } }
        // 20 buffers of 1024 frames at 44.1 kHz = 464 ms: four whole intervals and the rest.
        #expect(meters == 5)
    }

    @Test func controlsNeedTheirElement() async throws {
        let broadcast = try Broadcast(description: "audiotestsrc is-live=true ! fakesink")
        try await broadcast.start()
        #expect(throws: BroadcastError.notInPipeline("replaykitsrc")) { try broadcast.finish() }
        #expect(throws: BroadcastError.notInPipeline("pipcompositor")) { try broadcast.updatePicture(PictureUpdate(visible: false)) }
        #expect(await broadcast.cancel() == .cancelled)
        #expect(throws: BroadcastError.notRunning("update the picture")) { try broadcast.updatePicture(PictureUpdate(visible: false)) }
    }

    @Test func startFailureCarriesTheElementsError() async throws {
        let broadcast = try Broadcast(description: "audiotestsrc ! filesink name=out location=/nonexistent/folder/x.raw")
        await #expect(throws: BroadcastError.self) { try await broadcast.start() }
        guard case .failed(let issue) = await broadcast.waitUntilEnded() else {
            Issue.record("the broadcast did not end with the failure")
            return
        }
        #expect(issue.element == "out" && issue.message.contains("/nonexistent/folder/x.raw"), "\(issue)")
        #expect(issue.location == "/nonexistent/folder/x.raw")
    }

    /// hlssink2 opens its first segment only once the stream flows; a folder that cannot
    /// be made (here, below a file) is an error from that hlssink2 before the start, naming
    /// the folder.
    @Test func anHLSFolderThatCannotBeMadeFailsTheStart() async throws {
        let pattern = "/dev/null/folder/segment%05d.ts"
        let broadcast = try Broadcast(description: "videotestsrc is-live=true ! x264enc ! h264parse "
                                      + "! hlssink2 name=hls location=\(pattern) playlist-location=/dev/null/folder/playlist.m3u8")
        await #expect(throws: BroadcastError.self) { try await broadcast.start() }
        guard case .failed(let issue) = await broadcast.waitUntilEnded() else {
            Issue.record("the broadcast did not end with the failure")
            return
        }
        #expect(issue.element == "hls" && issue.location == pattern, "\(issue)")
        #expect(issue.message == "cannot write the HLS segments \(pattern): the folder /dev/null/folder: Not a directory")
        #expect(issue.domain == "gst-resource-error-quark" && issue.code == Int(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue))
    }

    /// Missing folders are made, parents and all, as ffmpeg's HLS muxer makes its own: the
    /// broadcast writes its segments and playlist there.
    @Test func missingHLSFoldersAreMade() async throws {
        let root = try temporaryDirectory("hls-folders")
        let folder = root.appendingPathComponent("new/dir").path
        let broadcast = try Broadcast(description: "videotestsrc num-buffers=60 ! video/x-raw,width=160,height=120,framerate=30/1 "
                                      + "! x264enc key-int-max=30 ! h264parse ! hlssink2 target-duration=1 "
                                      + "location=\(folder)/segment%05d.ts playlist-location=\(folder)/playlist.m3u8")
        try await broadcast.start()
        #expect(await broadcast.waitUntilEnded() == .endOfStream)
        let playlist = try String(contentsOfFile: "\(folder)/playlist.m3u8", encoding: .utf8)
        let segments = playlist.split(separator: "\n").filter { $0.hasPrefix("segment") }
        #expect(segments.count == 2 && segments.allSatisfy { FileManager.default.fileExists(atPath: "\(folder)/\($0)") }, "\(playlist)")
    }

    /// What a status display reads while a broadcast runs: every frame replaykitsrc made
    /// leaves the encoder, and the encoders' bytes are counted.
    @Test func trafficCountsFramesAndBytes() async throws {
        let broadcast = try Broadcast(description: "replaykitsrc name=rk is-live=false duration=1000000000 "
                                      + "rk.video ! videoconvert ! x264enc speed-preset=ultrafast ! fakesink "
                                      + "rk.audio_app ! audioconvert ! avenc_aac ! fakesink rk.audio_mic ! fakesink")
        try await broadcast.start()
        #expect(await broadcast.waitUntilEnded() == .endOfStream)
        let traffic = broadcast.traffic
        #expect(traffic.framesIn > 0 && traffic.framesOut == traffic.framesIn, "\(traffic)")
        #expect(traffic.encodedBytes > 0 && traffic.droppedFrames == 0, "\(traffic)")
        #expect(traffic.bitrate(over: .seconds(1)) == Double(traffic.encodedBytes) * 8)
    }

    /// GStreamer's level posts the fields volumemeter does: a display shows either.
    @Test func levelMessagesAreMeterReadings() async throws {
        let broadcast = try Broadcast(description: "audiotestsrc num-buffers=20 ! level name=lv ! fakesink")
        try await broadcast.start()
        let meters = await broadcast.events.reduce(into: [MeterReading]()) { if case .meter(let m) = $1 { $0.append(m) } }
        #expect(meters.count == 5 && meters.allSatisfy { $0.element == "lv" && $0.rms.count == 1 })
    }

    @Test func outputsAreListedWithTheirLocations() throws {
        let broadcast = try Broadcast(description: "videotestsrc ! x264enc ! h264parse ! hlssink2 name=hls location=/tmp/kit/s%05d.ts "
                                      + "playlist-location=/tmp/kit/p.m3u8 videotestsrc ! x264enc ! h264parse ! rtmp.video "
                                      + "rtmpreconnectsink name=rtmp location=rtmp://127.0.0.1:9/live/x")
        let hls = try #require(broadcast.hlsOutputs.first)
        #expect(broadcast.hlsOutputs.count == 1 && hls.element == "hls" && hls.playlist == "/tmp/kit/p.m3u8"
                && hls.segments == "/tmp/kit/s%05d.ts")
        let rtmp = try #require(broadcast.rtmpOutputs.first)
        #expect(broadcast.rtmpOutputs.count == 1 && rtmp.element == "rtmp" && rtmp.location == "rtmp://127.0.0.1:9/live/x")
        #expect(rtmp.reconnects && rtmp.connection == .stopped && !rtmp.connected && rtmp.notConnected == nil && rtmp.isUnreached)
    }

    /// Without a time-out, stop waits for the end of stream however long it takes; a second
    /// stop meanwhile waits for the same end.
    @Test func stopWithoutATimeOutWaitsForTheEnd() async throws {
        let broadcast = try Broadcast(description: "audiotestsrc is-live=true ! volumemeter ! fakesink")
        try await broadcast.start()
        async let first = broadcast.stop(timeout: nil)
        async let second = broadcast.stop(timeout: nil)
        #expect(try await [first, second] == [.endOfStream, .endOfStream])
    }

    @Test func syncCheckNamesAnOutputItCannotRead() async {
        await #expect(throws: SyncCheck.Failure.self) { try await SyncCheck.measure("/nonexistent/out.flv") }
        do {
            _ = try await SyncCheck.measure("/nonexistent/out.flv")
        } catch {
            #expect(error.description == "/nonexistent/out.flv: no such file")
        }
    }

    /// A UDP port nobody sends to: the decoding never starts playing, and the check still
    /// fails after its timeout (it waited for good before the start stopped waiting for PLAYING).
    @Test(.timeLimit(.minutes(1))) func syncCheckOfASilentStreamEndsAfterItsTimeout() async {
        let output = "udp://127.0.0.1:\(35000 + Int(getpid() % 5000))"
        let started = ContinuousClock.now
        do {
            _ = try await SyncCheck.measure(output, timeout: .milliseconds(1500))
            Issue.record("\(output): no failure")
        } catch {
            #expect(error.description == "\(output): no end of stream after 1.5 s", "\(error.description)")
        }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(1500) && took < .seconds(4), "took \(took)")
    }

    /// rtmpreconnectsink retrying for ever ends on EOS without an error of its own; a
    /// broadcast whose RTMP output never connected still ends as failed, naming the URL
    /// and why the attempts failed.
    @Test func anRTMPOutputThatNeverConnectedFailsTheBroadcast() async throws {
        let url = "rtmp://127.0.0.1:9/live/never"
        let broadcast = try Broadcast(description: "videotestsrc is-live=true num-buffers=15 ! x264enc tune=zerolatency ! h264parse ! rtmp.video "
                                      + "rtmpreconnectsink name=rtmp location=\(url) connect-retries=-1 retry-delay=100000000")
        try await broadcast.start()
        guard case .failed(let issue) = await broadcast.waitUntilEnded() else {
            Issue.record("the broadcast did not end as failed")
            return
        }
        #expect(issue.element == "rtmp")
        #expect(issue.message.hasPrefix("never connected to \(url): ") && issue.message.contains("Connection refused"), "\(issue)")
        let events = await broadcast.events.reduce(into: [BroadcastEvent]()) { $0.append($1) }
        #expect(events.suffix(2) == [.error(issue), .endOfStream])
        let output = try #require(broadcast.rtmpOutputs.first)
        #expect(output.isUnreached && output.notConnected.map { $0.reason.contains("Connection refused") && $0.count > 0 } == true,
                "\(output)")
    }

    @Test func pictureUpdatesSetPipcompositorsPadProperties() throws {
        let broadcast = try Broadcast(description: "videotestsrc num-buffers=1 ! pip.sink_0 videotestsrc num-buffers=1 ! pip.sink_1 "
                                      + "pipcompositor name=pip ! fakesink")
        try broadcast.updatePicture(PictureUpdate(position: .topLeft, margin: 12, scale: 0.25, visible: false))
        let pad = try #require(gst_element_get_static_pad(BinElements.made(by: "pipcompositor", in: broadcast.pipeline)[0], "sink_1"))
        defer { gst_object_unref(pad) }
        #expect(Self.text(pad, "position") == "top-left")
        #expect(Self.text(pad, "margin") == "12" && Self.text(pad, "scale") == "0.25" && Self.text(pad, "alpha") == "0")
        try broadcast.updatePicture(PictureUpdate(position: .at(x: 5, y: 7), size: (64, 48), visible: true))
        #expect(Self.text(pad, "position") == "custom" && Self.text(pad, "xpos") == "5" && Self.text(pad, "ypos") == "7")
        #expect(Self.text(pad, "width") == "64" && Self.text(pad, "height") == "48" && Self.text(pad, "scale") == "0")
        #expect(Self.text(pad, "alpha") == "1")
        #expect(throws: BroadcastError.refused("scale 2.0 is outside (0, 1]")) { try broadcast.updatePicture(PictureUpdate(scale: 2)) }
        #expect(throws: BroadcastError.notInPipeline("pad sink_5 on pip")) { try broadcast.updatePicture(PictureUpdate(visible: true), pad: 5) }
    }

    /// A property's value as gst-launch would write it.
    static func text(_ object: UnsafeMutableRawPointer, _ name: String) -> String {
        guard let spec = g_object_class_find_property(rc_object_class(object), name) else { return "?" }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(object), name, &value)
        if spec.pointee.value_type == rc_type_double() { return "\(g_value_get_double(&value))".replacingOccurrences(of: ".0", with: "") }
        let text = gst_value_serialize(&value)!
        defer { g_free(text) }
        return String(cString: text)
    }
}
