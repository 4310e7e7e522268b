// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import Synchronization
import Testing

/// Flushing, accurate seeks to [0.5 s, 1.0 s) in non-live pipelines that play in real time,
/// sent 0.2 s into the run: each element and its C peer, in the same run, start again at
/// 0.5 s and end at 1.0 s (volumemeter restarts its intervals, dualmixer and pipcompositor
/// realign their inputs); replaykitsrc, a capture, refuses the seek and plays on.
/// Each element's cases extend this suite from its own test folder
/// (`<Element>/<Element>ConformanceCases.swift`).
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
}
