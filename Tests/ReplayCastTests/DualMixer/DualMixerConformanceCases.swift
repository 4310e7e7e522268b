// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import MediaKernels
import Testing

extension FlushingSeekTests {
    @Test func dualmixerRealignsLikeAudiomixer() throws {
        let app = "audiotestsrc samplesperbuffer=960 ! \(Self.audio)"
        let mic = "audiotestsrc samplesperbuffer=441 wave=pink-noise ! audio/x-raw,rate=44100,channels=1"
        let seeked = try Self.seek("\(app) ! mix.app \(mic) ! mix.mic dualmixer name=mix ! fakesink sync=true name=out "
                                   + "\(app) ! peer. \(mic) ! audioconvert ! audioresample ! \(Self.audio) ! peer. "
                                   + "audiomixer name=peer ! fakesink sync=true name=peerout",
                                   observed: ["out", "peerout"])
        #expect(seeked.accepted && seeked.run.error == nil && seeked.run.reachedEOS)
        // Both mixers' output buffers are 10 ms by default.
        Self.expectCovered(seeked.after["out"]!, duration: 10_000_000, "dualmixer")
        Self.expectCovered(seeked.after["peerout"]!, duration: 10_000_000, "audiomixer")
    }

    /// The mic pad unlinked (dualmixer ends it itself): the seek cannot reach its upstream,
    /// yet the base class waits for its flush, which dualmixer sends.
    @Test func dualmixerWithAnUnlinkedMicSeeks() throws {
        let seeked = try Self.seek("audiotestsrc samplesperbuffer=441 ! audio/x-raw,rate=44100,channels=2 ! mix.app "
                                   + "dualmixer name=mix ! fakesink sync=true name=out", observed: ["out"])
        #expect(seeked.accepted && seeked.run.error == nil && seeked.run.reachedEOS)
        Self.expectCovered(seeked.after["out"]!, duration: 10_000_000, "dualmixer, mic unlinked")
    }
}

extension HostileInputTests {
    /// dualmixer (app pad at 44.1 kHz stereo S16LE, mic unlinked) mixes right after a
    /// flushing seek: 0.5 s of a 997 Hz sine at 0.5 comes out as 0.5 s at 48 kHz with its peak.
    static func expectMixesAgain(_ harness: Harness, _ label: String) {
        let sine = Signals.sine(frequency: 997, amplitude: 0.5, rate: 44100, frames: 22050, channels: 2)
        let bytes = Signals.encode(sine, as: .s16le)
        for k in 0..<50 {
            harness.push(Array(bytes[(k * 1764)..<((k + 1) * 1764)]), pts: UInt64(k) * 10_000_000)
        }
        harness.pushEOS()
        var frames = 0
        var peak = 0.0
        harness.pullUntilEOS { mixed in
            _ = mixed.withReadableBytes { data in
                let samples = data.bindMemory(to: Int16.self)
                frames += samples.count / 2
                for sample in samples { peak = max(peak, abs(Double(sample)) / 32768) }
            }
        }
        #expect(abs(frames - 24000) <= 480, "\(label): 0.5 s mixed after the flush: \(frames) frames at 48 kHz")
        #expect(abs(peak - 0.5) < 0.02, "\(label): the sine's peak: \(peak)")
    }

    @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
    func dualmixerTakesOddBuffersOnAnInputAndMixesAgainAfterASeek(seed: UInt64) throws {
        let harness = Harness(factory: "dualmixer", sinkPad: "app",
                              caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=44100,channels=2")
        gst_harness_play(harness.harness)
        let odd = Self.oddBuffers(seed: seed, count: 200, bytesPerFrame: 4, rate: 44100, framesPerBuffer: 441)
        _ = Self.push(odd, into: harness)
        _ = harness.messages()
        #expect(harness.errors.allSatisfy { $0.contains("dualmixer") }, "\(harness.errors)")

        Self.flush(harness, seek: true)
        harness.discardOutput()
        Self.expectMixesAgain(harness, "after odd input")
    }
}

extension PropertyThrashTests {
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
}

extension InheritedPropertyParityTests {
    /// 48 kHz stereo S16LE in and out, so neither resamples nor converts: 0.1 s of a sine on
    /// each input.
    static func tone(_ frequency: Int, buffers: Int = 10, volume: Double = 0.3) -> String {
        "audiotestsrc num-buffers=\(buffers) samplesperbuffer=480 freq=\(frequency) volume=\(volume) "
            + "! audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"
    }

    static let mixOutput = "audio/x-raw,format=S16LE,rate=48000,channels=2"

    @Test(arguments: [UInt64(10_000_000), 20_000_000, 25_000_000])
    func dualmixerOutputBufferDuration(duration: UInt64) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)],
                                         both: "output-buffer-duration=\(duration)", output: Self.mixOutput)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        let durations = Set(outcome.ours.buffers.dropLast().map(\.duration))
        #expect(outcome.ours.pts == outcome.peer.pts && durations == [duration], "\(duration) ns: \(outcome.text), durations \(durations)")
        #expect(outcome.ours.end == outcome.peer.end && outcome.ours.end == 100_000_000, "ends at \(outcome.ours.end ?? 0) ns")
        print("output-buffer-duration \(duration) ns: \(outcome.text)")
    }

    @Test func dualmixerStartTimeSet() throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)],
                                         both: "start-time-selection=set start-time=30000000", output: Self.mixOutput)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        #expect(outcome.ours.pts == outcome.peer.pts && outcome.ours.pts.first == 30_000_000, "\(outcome.text)")
    }

    /// emit-signals: one samples-selected per output buffer. audiomixer emits one more, in
    /// the call that finds every input ended (GstAudioAggregator selects before it knows).
    @Test func dualmixerEmitSignals() throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)], both: "emit-signals=true",
                                         output: Self.mixOutput)
        let peerExtra = outcome.peer.selected - outcome.peer.buffers.count
        #expect(outcome.ours.selected == outcome.ours.buffers.count && outcome.ours.selected == 10
                && outcome.peer.buffers.count == 10 && (0...1).contains(peerExtra),
                "samples-selected: ours \(outcome.ours.selected), audiomixer \(outcome.peer.selected); \(outcome.text)")
        let off = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)], output: Self.mixOutput)
        #expect(off.ours.selected == 0 && off.peer.selected == 0)
        print("emit-signals: samples-selected \(outcome.ours.selected) times, audiomixer \(outcome.peer.selected); \(outcome.text)")
    }

    /// The largest sample magnitude of an S16LE buffer, as PadRecorder's note.
    static func peak(_ bytes: UnsafeRawBufferPointer) -> String? {
        let samples = bytes.bindMemory(to: Int16.self)
        return String(samples.reduce(0) { max($0, abs(Int($1))) })
    }

    /// Pad volume and mute, audiomixer's names: the same peaks (within 2 of 32767 for the
    /// float sum dualmixer rounds back to S16). Both inputs are the same sine at 0.2 of full
    /// scale (6553), so each setting has its own sum: 2 x 6553, 1.5 x, 2.5 x, none.
    @Test(arguments: [("", 13107), ("sink_0::volume=0.5", 9830), ("sink_0::volume=2.5 sink_1::mute=true", 16384),
                      ("sink_0::mute=true sink_1::mute=true", 0)])
    func dualmixerPadVolumeAndMute(properties: String, expected: Int) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440, volume: 0.2), Self.tone(440, volume: 0.2)],
                                         both: properties, output: Self.mixOutput, inspect: Self.peak)
        #expect(outcome.run.error == nil && outcome.run.reachedEOS)
        let ours = outcome.ours.buffers.compactMap { $0.note.flatMap { Int($0) } }
        let peer = outcome.peer.buffers.compactMap { $0.note.flatMap { Int($0) } }
        let far = zip(ours, peer).filter { abs($0 - $1) > 2 }.count
        #expect(ours.count == 10 && peer.count == 10 && far == 0, "'\(properties)': peaks \(ours) vs audiomixer's \(peer)")
        #expect(ours.allSatisfy { abs($0 - expected) <= 40 }, "'\(properties)': peaks \(ours), about \(expected) expected")
        print("'\(properties)': peaks \(ours.max() ?? 0), audiomixer \(peer.max() ?? 0), \(ours.count) buffers compared")
    }
}

extension InheritedPropertyParityLiveTests {
    static func tone(_ frequency: Int, buffers: Int = 40) -> String {
        "audiotestsrc is-live=true num-buffers=\(buffers) samplesperbuffer=480 freq=\(frequency) volume=0.3 "
            + "! audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"
    }

    /// As pipcompositorStartTimeSelection, on the app input (the mic unlinked: ended), with a
    /// latency long enough that the first buffer comes before audiomixer's deadline: a live
    /// GstAudioAggregator that times out before any buffer set its start takes its segment's
    /// start (0) as the next output time, whatever the selection (gstaudioaggregator.c).
    /// audiomixer 1.22 then starts at 0 under `set`, as a run here did when the source's
    /// first buffer was held 50 ms; with 300 ms it starts at start-time after a 250 ms hold.
    @Test(arguments: selections)
    func dualmixerStartTimeSelection(selection: String, start: UInt64?) throws {
        let selection = selection + " latency=300000000"
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440)], both: selection,
                                         output: "audio/x-raw,format=S16LE,rate=48000,channels=2")
        #expect(outcome.run.error == nil && outcome.run.reachedEOS, "\(outcome.run.error?.description ?? "no EOS")")
        #expect(outcome.ours.pts.first == outcome.peer.pts.first && Self.close(outcome.ours.buffers.count, outcome.peer.buffers.count),
                "\(selection): \(outcome.text)")
        if let start { #expect(outcome.ours.pts.first == start, "\(selection): \(outcome.text)") }
        print("\(selection): \(outcome.text)")
    }

    @Test(arguments: ["latency=50000000", "min-upstream-latency=150000000"])
    func dualmixerLatency(properties: String) throws {
        let outcome = try PeerParity.run(Self.mixer, inputs: [Self.tone(440), Self.tone(660)], both: properties,
                                         output: "audio/x-raw,format=S16LE,rate=48000,channels=2", latencyAfter: 0.2)
        let ours = outcome.ours.latency, peer = outcome.peer.latency
        #expect(ours != nil && ours?.live == true && ours?.min == peer?.min,
                "\(properties): ours \(String(describing: ours)), audiomixer \(String(describing: peer))")
        print("\(properties): minimum latency \(ours?.min ?? 0) ns, audiomixer \(peer?.min ?? 0) ns")
    }
}
