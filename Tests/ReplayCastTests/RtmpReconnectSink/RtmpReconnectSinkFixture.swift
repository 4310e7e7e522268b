// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Testing

extension ElementFixture {
    static let rtmpreconnectsink = ElementFixture(
        element: "rtmpreconnectsink",
        // No server on the port: the first attempt is refused at once (one rtmp-reconnecting
        // message, long before the frames, paced by identity, end; the retry is 10 s away) and
        // a run ends in EOS without a connection. A refusal that comes after the end ends the
        // element without that message, as no retry follows: in a suite that keeps both cores
        // busy, 0.3 s of frames once ended first (Debian sid), so they last 1 s.
        stateMatrix: .covered(publisher(location: "rtmp://127.0.0.1:9/live/matrix")),
        // The same with live frames, the raw ones observed through the tee.
        liveStateMatrix: .covered(.init(
            description: "videotestsrc is-live=true num-buffers=9 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
                + "! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=3 ! h264parse ! rtmp.video "
                + "t. ! queue ! fakesink name=out "
                + "rtmpreconnectsink name=rtmp location=rtmp://127.0.0.1:9/live/matrix retry-delay=10000000000",
            observed: ["out"], buffers: 9, messages: true)),
        // With no server, keeping what it is handed: after the flushes it takes 30 more access
        // units and ends in EOS without a connection.
        flushBurst: .covered(.init(
            make: { try HostileInputTests.disconnectedPublisher("burst") },
            size: 97, duration: 33_333_333, burst: 50_000, aggregator: false,
            worksAgain: { harness, label in
                let after = (0..<30).filter { k in
                    harness.push([UInt8](repeating: 0x40, count: 97), pts: UInt64(k) * 33_333_333, duration: 33_333_333) == GST_FLOW_OK
                }.count
                harness.pushEOS()
                harness.waitForSinkEOS()
                #expect(after == 30, "\(label): access units taken after the last flush: \(after) of 30")
                #expect(harness.errors.isEmpty, "\(label): \(harness.errors)")
                #expect(harness.endsOfStream >= 1, "\(label): EOS without a connection")
            })),
        livePause: .optedOut("a sink: it sends only what reaches it, with no timeout of its own to run in a pause"),
        // Publishing 2 s of live H.264 and AAC to a real server, as a user would: both pads.
        process: "videotestsrc is-live=true num-buffers=60 ! video/x-raw,width=160,height=120,framerate=30/1 "
            + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 ! h264parse ! rtmp.video "
            + "audiotestsrc is-live=true num-buffers=94 ! audio/x-raw,rate=48000,channels=2 ! avenc_aac ! aacparse ! rtmp.audio "
            + "rtmpreconnectsink name=rtmp location={rtmp}/fixture",
        debugLog: [
            "INFO publishing 2 streams to rtmp://127.0.0.1:[0-9]+/live/fixture, dropping data while disconnected",
            "INFO live pipeline: connections drop the oldest data when behind",
            "INFO connected to rtmp://127.0.0.1:[0-9]+/live/fixture \\(attempt 0\\)",
            "DEBUG asking upstream for a keyframe",
        ],
        // Live, so the 2 s of warm-up are 2 s of wall time, in which the server has accepted
        // the stream (connecting allocates, once); counted on the raw frames: x264enc starts
        // its timestamps 1000 hours in.
        allocations: .covered(["rtmpreconnectsink": "videotestsrc is-live=true pattern=ball "
            + "! video/x-raw,width=320,height=240,framerate=30/1 ! tee name=t ! queue "
            + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 ! h264parse ! rtmp.video "
            + "audiotestsrc is-live=true ! voaacenc ! aacparse ! rtmp.audio rtmpreconnectsink name=rtmp location={rtmp}/allocations "
            + "t. ! queue ! fakesink name=out"]),
        bench: .covered(["rtmpreconnectsink", "rtmpreconnectsink-srt"]),
        noPeerCase: [
            .inheritedProperties: "a GstElement: it inherits no property but GstObject's name and parent",
            .flushingSeek: "a live publisher has no stream position to seek back to; the flushes a seek sends reach it in "
                + "FlushBurst (its fixture's flushBurst)",
        ])

    /// rtmpreconnectsink fed 1 s of H.264, publishing to `location`, the raw frames observed
    /// through the tee (the encoder's output varies from run to run).
    static func publisher(location: String) -> StateMatrixCase {
        .init(description: "videotestsrc num-buffers=30 ! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=t "
                + "! queue ! identity sync=true ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=3 ! h264parse ! rtmp.video "
                + "t. ! queue ! fakesink sync=true name=out "
                + "rtmpreconnectsink name=rtmp location=\(location) retry-delay=10000000000",
              observed: ["out"], buffers: 30, messages: true)
    }
}
