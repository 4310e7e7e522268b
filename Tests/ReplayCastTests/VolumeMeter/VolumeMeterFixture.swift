// SPDX-License-Identifier: LGPL-2.1-or-later
extension ElementFixture {
    static let volumemeter = ElementFixture(
        element: "volumemeter",
        stateMatrix: .covered(.init(
            description: "audiotestsrc num-buffers=15 samplesperbuffer=960 ! \(stereo48k) "
                + "! volumemeter interval=50000000 loudness=true ! fakesink sync=true name=out",
            observed: ["out"], buffers: 15, messages: true)),
        liveStateMatrix: .covered(.init(
            description: "audiotestsrc is-live=true num-buffers=15 samplesperbuffer=960 ! \(stereo48k) "
                + "! volumemeter interval=50000000 loudness=true ! fakesink name=out",
            observed: ["out"], buffers: 15, messages: true)),
        flushBurst: .covered(.init(
            make: { Harness("volumemeter interval=50000000", caps: stereo48k) },
            size: 1920, duration: 10_000_000, burst: 2000, aggregator: false,
            worksAgain: { HostileInputTests.expectMeasuresAgain($0, $1) })),
        livePause: .optedOut("a GstBaseTransform: it makes output only from input, with no timeout of its own to run in a pause"),
        process: "audiotestsrc num-buffers=50 samplesperbuffer=960 ! \(stereo48k) ! volumemeter loudness=true ! fakesink",
        debugLog: [
            "INFO metering s16le 48000 Hz 2 channels, intervals of 4800 frames, loudness on",
            "DEBUG intervals start at 0 ns",
            "LOG interval at [0-9]+ ns, 4800 frames: rms",
        ],
        // Its interval is a minute: posting is per interval, not per buffer.
        allocations: .covered(["volumemeter": "audiotestsrc wave=pink-noise samplesperbuffer=480 "
            + "! audio/x-raw,format=F32LE,rate=48000,channels=2 ! volumemeter loudness=true interval=60000000000 ! fakesink name=out"]),
        bench: .covered(["volumemeter", "volumemeter-loudness", "volumemeter-ebur128"]),
        noPeerCase: [:])

    /// 48 kHz stereo S16LE, the format the audio fixtures feed.
    static let stereo48k = "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2"
}
