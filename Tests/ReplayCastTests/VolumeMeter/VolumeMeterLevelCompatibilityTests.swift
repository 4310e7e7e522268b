// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import CTestSupport
import Foundation
import MediaKernels
import Testing

/// What level does beyond its messages, done as level does it, tested against level itself in
/// the same run: GstAudioLevelMeta (audio-level-meta), S8 input, any channel count, and the
/// deprecated `message` switch.
@Suite struct VolumeMeterLevelCompatibilityTests {
    struct Meta: Equatable, CustomStringConvertible {
        var level: Int
        var voiceActivity: Bool
        var description: String { "level \(level), voice \(voiceActivity)" }
    }

    /// The meta each element leaves on the same buffers (pushed as copies of one another);
    /// `upstream` gives every buffer a meta first, as a voice detector upstream would.
    static func metas(_ factory: String, _ bytes: [UInt8], format: SampleFormat, channels: Int, framesPerBuffer: Int,
                      upstream: Meta? = nil) -> [Meta?] {
        let harness = Harness("\(factory) audio-level-meta=true post-messages=false", caps: caps(format, channels: channels))
        let bytesPerFrame = format.bytesPerSample * channels
        var out: [Meta?] = []
        for start in stride(from: 0, to: bytes.count, by: framesPerBuffer * bytesPerFrame) {
            let chunk = Array(bytes[start..<min(start + framesPerBuffer * bytesPerFrame, bytes.count)])
            let buffer = harness.makeBuffer(chunk, pts: UInt64(out.count) * 10_000_000)
            if let upstream { gst_buffer_add_audio_level_meta(buffer, guint8(upstream.level), upstream.voiceActivity ? 1 : 0) }
            #expect(gst_harness_push(harness.harness, buffer) == GST_FLOW_OK)
            guard let pulled = gst_harness_pull(harness.harness) else { break }
            out.append(gst_buffer_get_audio_level_meta(pulled).map {
                Meta(level: Int($0.pointee.level), voiceActivity: $0.pointee.voice_activity != 0)
            })
            gst_buffer_unref(pulled)
        }
        return out
    }

    /// Caps as a source negotiates them: channels beyond stereo unpositioned (mask 0), as
    /// audiotestsrc gives them.
    static func caps(_ format: SampleFormat, channels: Int) -> String {
        "audio/x-raw,format=\(Signals.capsName(format)),layout=interleaved,rate=48000,channels=\(channels)"
            + (channels > 2 ? ",channel-mask=(bitmask)0x0" : "")
    }

    /// Signals from silence to full scale, in 10 ms buffers: each buffer's level equals
    /// level's, for every format and for stereo and 12 channels; the voice activity too
    /// (false on a new meta; kept from upstream's). Only digitally silent buffers differ, as
    /// documented: 127, the field's floor, where level's byte is an out-of-range C cast.
    @Test(arguments: SampleFormat.allCases.filter { $0 != .s16be }, [2, 12])
    func audioLevelMetaEqualsLevels(format: SampleFormat, channels: Int) {
        let rate = 48000, frames = rate / 2
        let signals: [(String, [Double])] = [
            ("silence", [Double](repeating: 0, count: frames * channels)),
            ("full scale square", (0..<(frames * channels)).map { ($0 / channels / 24) % 2 == 0 ? -1.0 : 1.0 }),
            ("sine at -20 dBFS", Signals.sine(frequency: 1000, amplitude: 0.1, rate: rate, frames: frames, channels: channels)),
            ("falling steps", Signals.fallingSteps(rate: rate, frames: frames, channels: channels, stepFrames: rate / 20)),
            ("noise", noise(count: frames * channels, decibels: -30)),
            ("quiet noise", noise(count: frames * channels, decibels: format == .s8 ? -40 : -70)),
        ]
        var compared = 0, silentBuffers = 0
        let bufferBytes = rate / 100 * channels * format.bytesPerSample
        for (name, samples) in signals {
            let bytes = Signals.encode(samples, as: format)
            for upstream in [nil, Meta(level: 0, voiceActivity: true)] {
                let ours = Self.metas("volumemeter", bytes, format: format, channels: channels, framesPerBuffer: rate / 100,
                                      upstream: upstream)
                let theirs = Self.metas("level", bytes, format: format, channels: channels, framesPerBuffer: rate / 100,
                                        upstream: upstream)
                #expect(ours.count == 50 && theirs.count == 50, "\(name)")
                for (index, (a, b)) in zip(ours, theirs).enumerated() {
                    guard let a, let b else {
                        Issue.record("\(name), buffer \(index): no meta (ours \(String(describing: a)), level's \(String(describing: b)))")
                        continue
                    }
                    #expect(a.voiceActivity == (upstream?.voiceActivity ?? false), "\(name), buffer \(index)")
                    #expect(a.voiceActivity == b.voiceActivity, "\(name), buffer \(index)")
                    if bytes[(index * bufferBytes)..<((index + 1) * bufferBytes)].allSatisfy({ $0 == 0 }) {
                        // level's byte for silence comes from casting an out-of-range double,
                        // which C leaves undefined (187 in one run here, 0 in another).
                        #expect(a.level == 127, "\(name), buffer \(index): \(a)")
                        silentBuffers += 1
                    } else {
                        #expect(a.level == b.level, "\(name), buffer \(index): \(a) against level's \(b)")
                    }
                    if name == "full scale square" { #expect(a.level == 0) }
                    compared += 1
                }
            }
        }
        #expect(compared == signals.count * 2 * 50)
        #expect(silentBuffers == 2 * 50, "only the silence is silent")
    }

    /// Deterministic white noise at roughly `decibels` dBFS RMS.
    func noise(count: Int, decibels: Double) -> [Double] {
        var state: UInt64 = 0x2545F4914F6CDD1D
        let amplitude = pow(10, decibels / 20) * 3.0.squareRoot()
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return amplitude * Double(Int64(bitPattern: state) >> 11) / Double(1 << 52)
        }
    }

    /// Above full scale (floats over 1.0) RFC 6464 has no value: we write 0, the loudest it has.
    @Test func aboveFullScaleReadsZero() {
        let bytes = Signals.encode([Double](repeating: 2, count: 4800), as: .f32le)
        let ours = Self.metas("volumemeter", bytes, format: .f32le, channels: 1, framesPerBuffer: 480)
        let theirs = Self.metas("level", bytes, format: .f32le, channels: 1, framesPerBuffer: 480)
        #expect(ours == [Meta?](repeating: Meta(level: 0, voiceActivity: false), count: 10))
        // level's byte here is an out-of-range cast too (250 or 0 in runs here): only that it
        // wrote a meta on every buffer is compared.
        #expect(theirs.compactMap { $0 }.count == 10)
    }

    /// A buffer someone else still holds is copied for the meta, as level copies it; the
    /// holder's buffer is left as it was. (Ten periods of a half-scale sine: 9.03 dB down.)
    @Test(arguments: ["volumemeter", "level"])
    func sharedBuffersAreCopiedForTheMeta(factory: String) throws {
        let harness = Harness("\(factory) audio-level-meta=true post-messages=false", caps: Self.caps(.s16le, channels: 2))
        let buffer = harness.makeBuffer(Signals.encode(Signals.sine(frequency: 1000, amplitude: 0.5, rate: 48000, frames: 480,
                                                                     channels: 2), as: .s16le), pts: 0)
        gst_buffer_ref(buffer)
        defer { gst_buffer_unref(buffer) }
        #expect(gst_harness_push(harness.harness, buffer) == GST_FLOW_OK)
        let out = try #require(gst_harness_pull(harness.harness))
        defer { gst_buffer_unref(out) }
        #expect(out != buffer)
        #expect(gst_buffer_get_audio_level_meta(buffer) == nil)
        #expect(gst_buffer_get_audio_level_meta(out)?.pointee.level == 9)
    }

    /// Turning the property on and off while buffers flow: the next buffer has the meta, then
    /// buffers pass through untouched again.
    @Test func audioLevelMetaCanBeSwitchedWhilePlaying() throws {
        let harness = Harness("volumemeter name=meter post-messages=false", caps: Self.caps(.s16le, channels: 1))
        let meter = try #require(gst_bin_get_by_name(rc_bin(harness.element), "meter"))
        defer { gst_object_unref(meter) }
        let chunk = Signals.encode(Signals.sine(frequency: 1000, amplitude: 0.5, rate: 48000, frames: 480), as: .s16le)
        var levels: [Int?] = []
        for setting in [nil, "true", nil, "false"] {
            if let setting { gst_util_set_object_arg(rc_gobject(meter), "audio-level-meta", setting) }
            harness.push(chunk, pts: UInt64(levels.count) * 10_000_000)
            let out = try #require(gst_harness_pull(harness.harness))
            levels.append(gst_buffer_get_audio_level_meta(out).map { Int($0.pointee.level) })
            gst_buffer_unref(out)
        }
        #expect(levels == [nil, 9, 9, nil])
    }

    /// S8 and 12 channels (past the 8 volumemeter took before): rms, peak and decay equal
    /// level's to 0.01 dB in every message.
    @Test(arguments: [(SampleFormat.s8, 2), (.s8, 12), (.s16le, 12), (.f32le, 12)])
    func s8AndTwelveChannelsMeterLikeLevel(format: SampleFormat, channels: Int) {
        let rate = 48000
        // Per channel a different tone and level, stepping through four levels every 0.2 s
        // (none silent, so level's −700 dB floor never meets our −200).
        let steps = [1.0, 0.5, 0.25, 0.6]
        let samples = (0..<(rate * 2 * channels)).map { index -> Double in
            let frame = index / channels, channel = index % channels
            let amplitude = 0.9 / (1 + Double(channel) / 4) * steps[(frame / (rate / 5)) % steps.count]
            return amplitude * sin(2 * .pi * 200 * Double(channel + 1) * Double(frame) / Double(rate))
        }
        let caps = Self.caps(format, channels: channels)
        let ours = meterMessages("volumemeter", samples: samples, format: format, rate: rate, channels: channels,
                                 framesPerBuffer: 1000, caps: caps)
        let theirs = meterMessages("level", samples: samples, format: format, rate: rate, channels: channels,
                                   framesPerBuffer: 1000, caps: caps).filter { $0.uint64("duration") != 0 }
        #expect(ours.count == 20 && theirs.count == 20, "\(ours.count) against level's \(theirs.count)")
        var compared = 0
        for (a, b) in zip(ours, theirs) {
            #expect(a.uint64("timestamp") == b.uint64("timestamp"))
            for field in ["rms", "peak", "decay"] {
                let x = a.doubles(field), y = b.doubles(field)
                #expect(x.count == channels && y.count == channels, "\(field): \(x.count) and \(y.count) values")
                for (u, v) in zip(x, y) {
                    #expect(abs(u - v) <= 0.01, "\(field) at \(a.uint64("timestamp") ?? 0): \(u) against level's \(v)")
                    compared += 1
                }
            }
        }
        #expect(compared == 20 * 3 * channels)
    }

    /// `message=false` (level's deprecated name for post-messages) posts nothing, and it is
    /// the same switch as post-messages in both directions.
    @Test func messageFalsePostsNothing() throws {
        let samples = Signals.sine(frequency: 440, amplitude: 0.5, rate: 48000, frames: 24000)
        let silent = meterMessages("volumemeter message=false", samples: samples, format: .s16le, rate: 48000, channels: 1,
                                   framesPerBuffer: 480)
        #expect(silent.isEmpty, "\(silent)")
        let posting = meterMessages("volumemeter post-messages=false message=true", samples: samples, format: .s16le,
                                    rate: 48000, channels: 1, framesPerBuffer: 480)
        #expect(posting.count == 5)

        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("volumemeter", nil))
        defer { gst_object_unref(element) }
        gst_util_set_object_arg(rc_gobject(element), "message", "false")
        #expect(booleanProperty(element, "post-messages") == false)
        gst_util_set_object_arg(rc_gobject(element), "post-messages", "true")
        #expect(booleanProperty(element, "message") == true)
    }

    /// The two properties volumemeter took from level are declared as level declares them:
    /// type, default, and the deprecated flag.
    @Test(arguments: ["message", "audio-level-meta"])
    func propertiesAreDeclaredAsLevelDeclaresThem(name: String) throws {
        GStreamerSetup.ensure()
        let ours = try #require(gst_element_factory_make("volumemeter", nil))
        let theirs = try #require(gst_element_factory_make("level", nil))
        defer {
            gst_object_unref(ours)
            gst_object_unref(theirs)
        }
        let a = try #require(g_object_class_find_property(rc_object_class(ours), name))
        let b = try #require(g_object_class_find_property(rc_object_class(theirs), name))
        #expect(a.pointee.value_type == b.pointee.value_type)
        #expect(g_value_get_boolean(g_param_spec_get_default_value(a)) == g_value_get_boolean(g_param_spec_get_default_value(b)))
        #expect(rc_param_is_deprecated(a) == rc_param_is_deprecated(b))
        #expect(rc_param_is_deprecated(a) == (name == "message" ? 1 : 0))
        #expect(booleanProperty(ours, name) == booleanProperty(theirs, name))
    }

    private func booleanProperty(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> Bool {
        var value = GValue()
        g_value_init(&value, rc_type_boolean())
        defer { g_value_unset(&value) }
        g_object_get_property(rc_gobject(element), name, &value)
        return g_value_get_boolean(&value) != 0
    }
}
