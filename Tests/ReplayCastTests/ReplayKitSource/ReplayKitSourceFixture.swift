// SPDX-License-Identifier: LGPL-2.1-or-later
extension ElementFixture {
    static let replaykitsrc = ElementFixture(
        element: "replaykitsrc",
        stateMatrix: .covered(.init(
            description: "replaykitsrc name=rk is-live=false duration=300000000 "
                + "rk.video ! fakesink sync=true name=video rk.audio_app ! fakesink sync=true name=app rk.audio_mic ! fakesink sync=true name=mic",
            // 0.3 s: 9 frames at 30 fps; the 1024-frame audio buffers are shorter than a frame.
            observed: ["video", "app", "mic"], buffers: 9, messages: true)),
        liveStateMatrix: .covered(.init(
            description: "replaykitsrc name=rk is-live=true duration=300000000 "
                + "rk.video ! fakesink name=video rk.audio_app ! fakesink name=app rk.audio_mic ! fakesink name=mic",
            observed: ["video", "app", "mic"], buffers: 9, messages: true)),
        flushBurst: .optedOut("a source: nothing upstream pushes into it or flushes it (its refusal of seeks is FlushingSeek's)"),
        livePause: .optedOut("a source: a live GstBaseSrc makes nothing in PAUSED, and the live state matrix pauses it mid-run"),
        // A pause from 0.5 to 0.7 s: the audio pads send gaps.
        process: "replaykitsrc name=rk is-live=false duration=1000000000 schedule=500ms:pause;700ms:resume "
            + "rk.video ! fakesink rk.audio_app ! fakesink rk.audio_mic ! fakesink",
        debugLog: [
            "INFO broadcast started: iphone-11-ios17 1242x2688, non-live, 2 scheduled events",
            "INFO pause at broadcast time 500000000 ns",
            "LOG audio_mic: nothing captured for [0-9]+ ns at broadcast time [0-9]+ ns, GAP event",
        ],
        // screen-location: a picture per slot from the file, each compared, converted to
        // the screen's colours and copied.
        allocations: .covered([
            "replaykitsrc": "replaykitsrc is-live=false name=rk rk.video ! fakesink name=out rk.audio_app ! fakesink rk.audio_mic ! fakesink",
            "screen-location": "replaykitsrc is-live=false width=360 height=640 screen-location={screen} name=rk "
                + "rk.video ! fakesink name=out rk.audio_app ! fakesink rk.audio_mic ! fakesink",
        ]),
        bench: .covered(["replaykitsrc"]),
        noPeerCase: [
            .inheritedProperties: "a GstElement: it inherits no property but GstObject's name and parent",
            .capsChange: "a source whose caps are fixed for a broadcast (profile, width, height); a rotation is a tag "
                + "(ReplayKitLifecycleTests.orientationChangeIsTagged), not new caps",
        ])
}
