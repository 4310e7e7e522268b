// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Synchronization
import Testing

/// Flushing, accurate seeks to [0.5 s, 1.0 s) in non-live pipelines that play in real time,
/// sent 0.2 s into the run: each element and its C peer, in the same run, start again at
/// 0.5 s and end at 1.0 s (volumemeter restarts its intervals, dualmixer and pipcompositor
/// realign their inputs); replaykitsrc, a capture, refuses the seek and plays on.
@Suite struct FlushingSeekTests {
    static let start: UInt64 = 500_000_000
    static let stop: UInt64 = 1_000_000_000
    static let audio = "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"

    struct Seeked {
        let run: PipelineRun
        let accepted: Bool
        /// Every buffer that reached each observed sink.
        let all: [String: [PadRecorder.BufferRecord]]
        /// Those after the seek's new segment.
        let after: [String: [PadRecorder.BufferRecord]]
    }

    private final class Answer: Sendable {
        let accepted = Atomic(false)
    }

    /// Plays `description`, seeking 0.2 s into the run unless `seeking` is false.
    static func seek(_ description: String, observed: [String], seeking: Bool = true) throws -> Seeked {
        let recorders = Dictionary(uniqueKeysWithValues: observed.map { ($0, PadRecorder()) })
        let answer = Answer()
        let run = try PipelineRun.run(description, timeout: 10, prepare: { pipeline in
            for (name, recorder) in recorders { recorder.attach(to: pipeline, element: name, pad: "sink") }
        }, whilePlaying: { pipeline in
            guard seeking else { return }
            Thread.sleep(forTimeInterval: 0.2)
            let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
            answer.accepted.store(gst_element_seek(pipeline, 1.0, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(start),
                                                   GST_SEEK_TYPE_SET, gint64(stop)) != 0, ordering: .relaxed)
        })
        let after = recorders.mapValues { recorder -> [PadRecorder.BufferRecord] in
            let records = recorder.all
            guard let last = records.lastIndex(of: .other("segment")),
                  records.firstIndex(of: .other("segment")) != last else { return [] }
            return records[last...].compactMap { if case .buffer(let b) = $0 { return b } else { return nil } }
        }
        return Seeked(run: run, accepted: answer.accepted.load(ordering: .relaxed), all: recorders.mapValues(\.buffers),
                      after: after)
    }

    /// Buffers after the seek start at 0.5 s and cover [0.5 s, 1.0 s), in buffers of `duration`.
    static func expectCovered(_ buffers: [PadRecorder.BufferRecord], duration: UInt64, _ label: String) {
        #expect(buffers.count == Int((stop - start) / duration), "\(label): \(buffers.count) buffers of \(duration) ns after the seek")
        #expect(buffers.first?.pts == start, "\(label): first buffer after the seek at \(buffers.first?.pts ?? 0) ns")
        let end = buffers.last.map { $0.pts + $0.duration } ?? 0
        #expect(end == stop, "\(label): last buffer after the seek ends at \(end) ns")
        #expect(zip(buffers, buffers.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts }, "\(label): contiguous")
    }

    @Test func volumemeterRestartsItsIntervalsLikeLevel() throws {
        let source = "audiotestsrc samplesperbuffer=960 wave=sine ! \(Self.audio)"
        let seeked = try Self.seek("\(source) ! volumemeter name=meter interval=100000000 ! fakesink sync=true name=out "
                                   + "\(source) ! level name=level interval=100000000 ! fakesink sync=true name=peer",
                                   observed: ["out", "peer"])
        #expect(seeked.accepted && seeked.run.error == nil && seeked.run.reachedEOS)
        // volumemeter passes the source's 960-frame buffers (20 ms at 48 kHz) through.
        Self.expectCovered(seeked.after["out"]!, duration: 20_000_000, "volumemeter")
        // level also reports an empty interval at EOS (duration 0); volumemeter does not.
        func streamTimes(_ source: String, _ name: String) -> [UInt64] {
            seeked.run.messages(from: source, named: name).filter { ($0.uint64("duration") ?? 0) > 0 }
                .compactMap { $0.uint64("stream-time") }
        }
        let ours = streamTimes("meter", "volumemeter"), peer = streamTimes("level", "level")
        let afterSeek = ours.filter { $0 >= Self.start }
        #expect(afterSeek == [500, 600, 700, 800, 900].map { UInt64($0) * 1_000_000 }, "\(ours)")
        #expect(!ours.contains { $0 > 200_000_000 && $0 < Self.start }, "no interval across the seek: \(ours)")
        #expect(afterSeek == peer.filter { $0 >= Self.start }, "level: \(peer)")
    }

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

    @Test func pipcompositorRealignsLikeCompositor() throws {
        let main = "videotestsrc ! video/x-raw,format=NV12,width=160,height=120,framerate=30/1"
        let pip = "videotestsrc pattern=ball ! video/x-raw,format=NV12,width=32,height=24,framerate=30/1"
        let seeked = try Self.seek("\(main) ! pip.sink_0 \(pip) ! pip.sink_1 pipcompositor name=pip ! fakesink sync=true name=out "
                                   + "\(main) ! peer.sink_0 \(pip) ! peer.sink_1 compositor name=peer ! fakesink sync=true name=peerout",
                                   observed: ["out", "peerout"])
        #expect(seeked.accepted && seeked.run.error == nil && seeked.run.reachedEOS)
        let ours = seeked.after["out"]!, peer = seeked.after["peerout"]!
        #expect(ours.count == 15, "15 frames of 1/30 s in [0.5 s, 1.0 s): \(ours.count)")
        #expect(ours.map(\.pts) == peer.map(\.pts), "compositor's frame times")
        #expect(ours.first?.pts == Self.start)
    }

    /// A capture cannot go back: the seek is refused (FALSE) and the broadcast plays on,
    /// every frame and sample as in a run without the seek.
    @Test func replaykitsrcRefusesTheSeekAndPlaysOn() throws {
        let description = "replaykitsrc name=rk is-live=false duration=400000000 "
            + "rk.video ! fakesink sync=true name=video rk.audio_app ! fakesink sync=true name=app rk.audio_mic ! fakesink sync=true name=mic"
        let seeked = try Self.seek(description, observed: ["video", "app", "mic"])
        #expect(seeked.accepted == false, "the seek is refused")
        #expect(seeked.run.error == nil && seeked.run.reachedEOS)
        #expect(seeked.after.values.allSatisfy { $0.isEmpty }, "no new segment")
        let plain = try Self.seek(description, observed: ["video", "app", "mic"], seeking: false)
        #expect(plain.all["video"]!.count > 0)
        #expect(seeked.all == plain.all, "the same buffers as without the seek")
    }
}
