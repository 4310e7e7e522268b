// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

extension ElementFixture {
    static let pipcompositor = ElementFixture(
        element: "pipcompositor",
        stateMatrix: .covered(.init(
            description: "videotestsrc num-buffers=9 ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! pip.sink_0 "
                + "videotestsrc num-buffers=9 pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! pip.sink_1 "
                + "pipcompositor name=pip sink_1::xpos=8 sink_1::ypos=8 ! fakesink sync=true name=out",
            observed: ["out"], buffers: 9, messages: false)),
        liveStateMatrix: .covered(.init(
            description: "videotestsrc is-live=true num-buffers=9 ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 "
                + "! pip.sink_0 videotestsrc is-live=true pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 "
                + "! pip.sink_1 pipcompositor name=pip sink_1::xpos=8 sink_1::ypos=8 ! fakesink name=out",
            observed: ["out"], buffers: 9, messages: false)),
        flushBurst: .covered(.init(
            make: { Harness(factory: "pipcompositor", sinkPad: "sink_0", caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1") },
            size: 28800, duration: 33_333_333, burst: 600, aggregator: true,
            worksAgain: { harness, label in
                for k in 0..<5 { harness.push([UInt8](repeating: 0x80, count: 28800), pts: UInt64(k) * 33_333_333, duration: 33_333_333) }
                harness.pushEOS()
                var luma: [UInt8] = []
                harness.pullUntilEOS { frame in _ = frame.withReadableBytes { luma.append($0[100 * 160 + 80]) } }
                _ = harness.messages()
                #expect(harness.errors.isEmpty, "\(label): \(harness.errors)")
                #expect(luma == [UInt8](repeating: 0x80, count: 5), "\(label): the five frames after the flush: \(luma)")
            })),
        livePause: .covered(.init(
            peer: "compositor",
            line: "videotestsrc is-live=true num-buffers=15 ! video/x-raw,format=NV12,width=64,height=48,framerate=30/1 ! mix. "
                + "MIXER name=mix latency=100000000 ! video/x-raw,format=NV12,width=64,height=48 ! fakesink name=out",
            input: 500_000_000, outputBuffer: 33_333_333)),
        process: "videotestsrc num-buffers=30 ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1 ! pip.sink_0 "
            + "videotestsrc num-buffers=30 pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1 ! pip.sink_1 "
            + "pipcompositor name=pip sink_1::xpos=8 sink_1::ypos=8 ! fakesink",
        debugLog: [
            "INFO output NV12 160x120, colours bt601 limited range",
            "LOG frame at [0-9]+ ns: PiPs drawn into the main buffer itself, main picture 160x120 at \\(0, 0\\), 1 PiP pads",
        ],
        // The main job's picture: a converted, scaled, bordered and rounded camera.
        allocations: .covered(["pipcompositor": "videotestsrc pattern=black "
            + "! video/x-raw,format=NV12,width=720,height=1558,framerate=30/1,colorimetry=1:3:5:1 ! pip.sink_0 "
            + "videotestsrc pattern=ball ! video/x-raw,format=NV12,width=320,height=240,framerate=30/1 ! pip.sink_1 "
            + "pipcompositor name=pip sink_0::zorder=0 sink_1::zorder=1 sink_1::position=bottom-right sink_1::scale=0.3 "
            + "sink_1::margin=48 sink_1::border-width=8 sink_1::corner-radius=32 ! fakesink name=out"]),
        bench: .covered(["pipcompositor"]),
        noPeerCase: [:])
}
