// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

/// Every writable property of each element (and of its pads) written 3000 times with
/// legal values, seeded, from the test thread while the pipeline plays in real time on its
/// own threads: the run ends in EOS without an error, its output keeps its timing and
/// size, and what does not depend on the properties (a meter's pass-through, a capture
/// whose settings apply from the next start) is the same as in a run left alone.
/// Each element's cases extend this suite from its own test folder
/// (`<Element>/<Element>ConformanceCases.swift`).
@Suite struct PropertyThrashTests {
    static let writes = 3000
    static let audio = "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved"

    struct Thrashed {
        var run: PipelineRun
        var out: PadRecorder
        var written: [String: Int]
        var skipped: Set<String>
        /// Where the pipeline was when the last write was made, and where it ended.
        var positionAtLastWrite: UInt64
        var end: UInt64
    }

    /// Plays `description` (its sink named "out"); with `targets` set, writes into the
    /// properties of the elements and pads they name ("el" or "el.pad") while it plays.
    /// `settle` runs after the writes, to set back a value that would rightly keep the run
    /// from ending.
    static func play(_ description: String, targets: [String] = [], strings: [String: [String]] = [:],
                     settle: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil, seed: UInt64 = 1) throws -> Thrashed {
        let out = PadRecorder(inspect: { bytes in String(bytes.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }) })
        var written: [String: Int] = [:]
        var skipped: Set<String> = []
        var position: gint64 = -1
        let run = try PipelineRun.run(description, timeout: 20, prepare: { pipeline in
            out.attach(to: pipeline, element: "out", pad: "sink")
        }, whilePlaying: { pipeline in
            guard !targets.isEmpty else { return }
            let objects = targets.map { object(in: pipeline, $0) }
            defer { objects.forEach { gst_object_unref($0) } }
            var thrash = PropertyThrash(objects.map { rc_gobject($0) }, strings: strings, seed: seed)
            skipped = thrash.properties().skipped
            written = thrash.run(count: writes, pause: 0.002)
            settle?(pipeline)
            let sink = gst_bin_get_by_name(rc_bin(pipeline), "out")!
            _ = gst_element_query_position(sink, GST_FORMAT_TIME, &position)
            gst_object_unref(sink)
        })
        let end = out.buffers.last.map { $0.pts + $0.duration } ?? 0
        return Thrashed(run: run, out: out, written: written, skipped: skipped, positionAtLastWrite: UInt64(max(position, 0)), end: end)
    }

    /// "el" is the element named el, "el.pad" its pad (a new reference either way).
    static func object(in pipeline: UnsafeMutablePointer<GstElement>, _ path: String) -> gpointer {
        let parts = path.split(separator: ".").map(String.init)
        let element = gst_bin_get_by_name(rc_bin(pipeline), parts[0])!
        guard parts.count == 2 else { return gpointer(element) }
        defer { gst_object_unref(element) }
        return gpointer(gst_element_get_static_pad(element, parts[1])!)
    }

    /// `properties`: how many writable properties the targets have between them, by name;
    /// `skipped`: those without a range to draw from (strings without given choices).
    static func expectThrashedWhilePlaying(_ t: Thrashed, _ label: String, properties: Int, skipped: Set<String> = []) {
        #expect(t.run.error == nil && t.run.reachedEOS, "\(label): \(t.run.error.map { "\($0)" } ?? "no EOS")")
        #expect(t.written.values.reduce(0, +) == writes, "\(label): \(t.written)")
        #expect(t.skipped == skipped, "\(label): not written: \(t.skipped.sorted())")
        #expect(t.written.count + t.skipped.count == properties,
                "\(label): every writable property written: \(t.written.keys.sorted())")
        #expect(t.positionAtLastWrite > 0 && t.positionAtLastWrite < t.end,
                "\(label): the last write at \(t.positionAtLastWrite) ns, before the end at \(t.end) ns")
    }

    /// No buffer count: the writes pick the buffers' duration (dualmixer's output-buffer-duration,
    /// 1 ms to 1 s). The first buffer's start and the last one's end anchor the chain instead, so
    /// an empty or cut-short list fails.
    static func expectContiguous(_ buffers: [PadRecorder.BufferRecord], from start: UInt64, to end: UInt64, _ label: String) {
        #expect(buffers.first?.pts == start, "\(label): first at \(buffers.first?.pts ?? 0)")
        #expect(zip(buffers, buffers.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts }, "\(label): contiguous")
        #expect(buffers.last.map { $0.pts + $0.duration } == end, "\(label): ends at \(end) ns")
    }
}
