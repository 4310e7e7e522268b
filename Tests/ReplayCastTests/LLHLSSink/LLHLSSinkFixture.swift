// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

extension ElementFixture {
    static let llhlssink = ElementFixture(
        element: "llhlssink",
        // 1 s of H.264 and AAC into a fresh folder each run, the raw frames observed through the tee.
        stateMatrix: .covered(.init(description: LLHLSSinkTests.ladder(live: false, frames: 30, folder: LLHLSSinkTests.matrixFolder),
                                    observed: ["out"], buffers: 30, messages: true)),
        liveStateMatrix: .covered(.init(description: LLHLSSinkTests.ladder(live: true, frames: 9, folder: LLHLSSinkTests.matrixFolder),
                                        observed: ["out"], buffers: 9, messages: true)),
        // Access units of 97 bytes on its video pad: after the flushes it takes 30 more and
        // ends its playlist with them.
        flushBurst: .covered(.init(
            make: { try LLHLSSinkTests.harness() },
            size: 97, duration: 33_333_333, burst: 20_000, aggregator: false,
            worksAgain: { harness, label in
                let after = (0..<30).filter { k in
                    harness.push([UInt8](repeating: 0x40, count: 97), pts: UInt64(k) * 33_333_333, duration: 33_333_333,
                                 flags: k % 10 == 0 ? nil : GST_BUFFER_FLAG_DELTA_UNIT) == GST_FLOW_OK
                }.count
                harness.pushEOS()
                harness.waitForSinkEOS()
                #expect(after == 30, "\(label): access units taken after the last flush: \(after) of 30")
                #expect(harness.errors.isEmpty, "\(label): \(harness.errors)")
            })),
        livePause: .optedOut("a sink: it writes only what reaches it, with no timeout of its own to run in a pause"),
        process: "videotestsrc num-buffers=60 ! video/x-raw,width=160,height=120,framerate=30/1 "
            + "! x264enc speed-preset=ultrafast key-int-max=30 ! h264parse ! ll.video_0 "
            + "audiotestsrc num-buffers=94 samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 ! avenc_aac ! aacparse ! ll.audio "
            + "llhlssink name=ll location=/tmp/replaycast-fixture-llhls target-duration=1",
        debugLog: [
            "INFO writing video_0, audio to /tmp/replaycast-fixture-llhls: parts of at most 0.3 s, segments of 1.0 s",
            "INFO video_0: video/x-h264",
            "DEBUG video_0: segment 0, [0-9]+ bytes in 1000 ms",
            "DEBUG multivariant playlist written",
            "LOG audio: part 0.0",
        ],
        allocations: .optedOut("it writes files: each part is a file, and the playlists are written again, text and "
            + "names made anew, per part (a few times a second, not per buffer)"),
        bench: .optedOut("its case against hlssink2 is to come (issue #49)"),
        noPeerCase: [
            .inheritedProperties: "a GstElement: it inherits no property but GstObject's name and parent",
            .flushingSeek: "a live packager: after a seek back it goes on after a discontinuity (LLHLSSinkTests), which "
                + "hlssink2 does not do; the flushes reach it in FlushBurst",
            .capsChange: "a rendition keeps one init segment: a new format is an error naming it (LLHLSSinkTests)",
            .hostileInput: "its input is what a parser has checked; odd buffers reach it in FlushBurst",
            .propertyThrash: "every property is fixed from READY on: set while streaming, GObject refuses it",
        ])
}
