// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayKitModel
import Testing

/// replaykitsrc in non-live mode: deterministic, as fast as the machine allows.
@Suite struct ReplayKitSourceTests {
    @Test func deviceEnumNamesTheSwiftProfiles() throws {
        GStreamerSetup.ensure()
        let element = try #require(gst_element_factory_make("replaykitsrc", nil))
        defer { gst_object_unref(element) }
        let spec = try #require(g_object_class_find_property(rc_object_class(element), "device"))
        let enumClass = g_type_class_ref(spec.pointee.value_type)!.assumingMemoryBound(to: GEnumClass.self)
        defer { g_type_class_unref(enumClass) }
        let nicks = (0..<Int(enumClass.pointee.n_values)).map { String(cString: enumClass.pointee.values[$0].value_nick) }
        #expect(nicks == DeviceProfile.names)
    }

    @Test(arguments: DeviceProfile.names)
    func capsAndBufferSizesFollowTheProfile(device: String) throws {
        let profile = try #require(DeviceProfile(named: device))
        let recorded = try RecordedBroadcast.record("device=\(device) duration=1200000000")
        #expect(recorded.run.error == nil, "\(String(describing: recorded.run.error))")
        #expect(recorded.run.reachedEOS)

        let video = try #require(recorded.video.caps.first)
        #expect(video.contains("format=(string)NV12"))
        #expect(video.contains("width=(int)\(profile.screenWidth)") && video.contains("height=(int)\(profile.screenHeight)"))
        #expect(video.contains("colorimetry=(string)1:3:5:1"), "full range BT.709")

        for (recorder, stream) in [(recorded.app, profile.app), (recorded.mic, profile.mic)] {
            let caps = try #require(recorder.caps.first)
            #expect(caps.contains("format=(string)\(stream.format == .s16be ? "S16BE" : "S16LE")"))
            #expect(caps.contains("rate=(int)\(stream.rate)") && caps.contains("channels=(int)\(stream.channels)"))
            let frameBytes = stream.channels * 2
            let sizes = recorder.buffers.map { $0.size / frameBytes }
            let expected = (0..<sizes.count).map { stream.cadence.frames(ofBuffer: $0) }
            // All but the last buffer follow the cadence; the last ends exactly at the finish.
            #expect(Array(sizes.dropLast()) == Array(expected.dropLast()))
            let total = sizes.reduce(0, +)
            #expect(total == Int((1.2 * Double(stream.rate)).rounded(.down)), "sample count of 1.2 s at \(stream.rate) Hz")
        }
    }

    @Test func iOS12AppAudioComesInBigEndianBursts() throws {
        let recorded = try RecordedBroadcast.record("device=iphone-x-ios12 duration=2000000000", pads: ["audio_app"])
        let sizes = recorded.app.buffers.map { $0.size / 2 }
        #expect(Array(sizes.prefix(3)) == [22596, 22596, 22596])
        let starts = recorded.app.buffers.map(\.pts)
        #expect(starts[1] - starts[0] == UInt64((22596.0 / 44100 * 1e9).rounded()))
    }

    @Test func micSplitsSomeCallbacks() throws {
        let recorded = try RecordedBroadcast.record("device=iphone-11-ios17 duration=3000000000", pads: ["audio_mic"])
        let sizes = recorded.mic.buffers.map { $0.size / 2 }
        #expect(sizes.contains(955) && sizes.contains(69))
        for (index, size) in sizes.enumerated() where size == 955 { #expect(sizes[index + 1] == 69) }
    }

    /// The S16BE bytes on the app pad are the program's samples in big-endian order.
    @Test func bigEndianAppSamplesDecodeToTheProgram() throws {
        let program = ProgramAudio(.music, rate: 44100)
        let recorder = PadRecorder { bytes in
            let frames = bytes.count / 2
            var expected = [Int16](repeating: 0, count: frames)
            expected.withUnsafeMutableBytes { program.render(from: 0, count: frames, channels: 1, format: .s16le, into: $0.baseAddress!) }
            let decoded = (0..<frames).map { Int16(bigEndian: bytes.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
            let peak = decoded.map { abs(Int($0)) }.max() ?? 0
            return decoded == expected ? "match \(peak)" : "mismatch"
        }
        let run = try PipelineRun.run("replaykitsrc name=rk is-live=false device=iphone-x-ios12 duration=500000000 rk.audio_app ! fakesink",
                                      prepare: { recorder.attach(to: $0, element: "rk", pad: "audio_app") })
        #expect(run.error == nil)
        let first = try #require(recorder.buffers.first?.note)
        #expect(first.hasPrefix("match"))
        #expect((Int(first.dropFirst(6)) ?? 0) > 3000, "the program is not silence")
    }

    @Test func barcodesCountFramesWithoutDropsOrRepeats() throws {
        let recorded = try RecordedBroadcast.record("num-frames=45", pads: ["video"], barcodes: (1242, 2688))
        let frames = recorded.video.buffers
        #expect(frames.count == 45)
        for (index, frame) in frames.enumerated() {
            #expect(frame.note == "\(index) \(frame.pts)", "frame \(index): \(frame.note ?? "")")
        }
        #expect(frames.ptsNotIncreasing.isEmpty, "timestamps not increasing after frames \(frames.ptsNotIncreasing)")
        #expect(frames.first?.discont == true)
    }

    @Test func staticPeriodsSendNoFrames() throws {
        let recorded = try RecordedBroadcast.record("activity=busy:1s,idle:1s duration=4000000000", pads: ["video"])
        let times = recorded.video.buffers.map(\.pts)
        // Each busy second gives its 30 slots plus the slot that closes it (at 1 s, 3 s):
        // that frame shows the last change, made just before it. Then nothing until the
        // screen changes again.
        #expect(times.count == 62)
        let idle = times.filter { ($0 / 1_000_000_000) % 2 == 1 && $0 % 1_000_000_000 != 0 }
        #expect(idle.isEmpty, "frames in an idle second: \(idle)")
        #expect(recorded.video.gaps.isEmpty, "a static screen is not a gap")
    }
}
