// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

extension ElementFixture {
    static let dualmixer = ElementFixture(
        element: "dualmixer",
        stateMatrix: .covered(.init(
            description: "audiotestsrc num-buffers=15 samplesperbuffer=960 ! \(stereo48k) ! mix.app "
                + "audiotestsrc num-buffers=15 samplesperbuffer=441 wave=pink-noise ! audio/x-raw,rate=44100,channels=1 ! mix.mic "
                + "dualmixer name=mix post-levels=true level-interval=50000000 ! fakesink sync=true name=out",
            // The app's 0.3 s in 10 ms output buffers.
            observed: ["out"], buffers: 30, messages: true)),
        liveStateMatrix: .covered(.init(
            description: "audiotestsrc is-live=true num-buffers=15 samplesperbuffer=960 ! \(stereo48k) ! mix.app "
                + "audiotestsrc is-live=true num-buffers=15 samplesperbuffer=441 ! audio/x-raw,rate=44100,channels=1 ! mix.mic "
                + "dualmixer name=mix post-levels=true level-interval=50000000 ! fakesink name=out",
            observed: ["out"], buffers: 30, messages: true)),
        flushBurst: .covered(.init(
            make: { Harness(factory: "dualmixer", sinkPad: "app", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=44100,channels=2") },
            size: 1764, duration: 10_000_000, burst: 2000, aggregator: true,
            worksAgain: { harness, label in
                HostileInputTests.expectMixesAgain(harness, label)
                _ = harness.messages()
                #expect(harness.errors.isEmpty, "\(label): \(harness.errors)")
            })),
        livePause: .covered(.init(
            peer: "audiomixer",
            line: "audiotestsrc is-live=true num-buffers=25 samplesperbuffer=960 ! \(stereo48k) ! mix. "
                + "MIXER name=mix latency=100000000 ! audio/x-raw,format=S16LE,rate=48000,channels=2 ! fakesink name=out",
            input: 500_000_000, outputBuffer: 10_000_000)),
        process: "audiotestsrc num-buffers=50 samplesperbuffer=960 ! \(stereo48k) ! mix.app "
            + "audiotestsrc num-buffers=50 samplesperbuffer=441 wave=pink-noise ! audio/x-raw,rate=44100,channels=1 ! mix.mic "
            + "dualmixer name=mix post-levels=true ! fakesink",
        debugLog: [
            "INFO mic: s16le 44100 Hz 1 channels, resampled to 48000 Hz",
            "DEBUG mic: aligned: running time 0 ns sounds at output frame 0",
        ],
        // Its levels are off by default: posting is per interval, not per buffer.
        allocations: .covered(["dualmixer": "audiotestsrc wave=pink-noise samplesperbuffer=1024 "
            + "! audio/x-raw,format=S16BE,rate=44100,channels=2 ! mix.app audiotestsrc wave=pink-noise samplesperbuffer=1024 "
            + "! audio/x-raw,format=S16LE,rate=48000,channels=1 ! mix.mic dualmixer name=mix ! fakesink name=out"]),
        bench: .covered(["dualmixer"]),
        noPeerCase: [
            .capsChange: "its input format switch in the middle of a stream is DualMixerScenarioTests.micFormatSwitchKeepsTheOutputWhole",
        ])
}
