// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import Testing

/// Odd buffers from a seeded generator (reproducible: the seed is in the test's name): empty
/// buffers, one frame, sizes that are not a whole number of frames, missing, repeated,
/// backwards and huge timestamps, DISCONT and GAP in odd places. Each element passes them
/// on or says what is wrong in an element error naming itself, never crashes or raises a
/// GLib critical (the suite runs with G_DEBUG=fatal-warnings), and measures or draws
/// correctly again once it gets good data after a flush (dualmixer: a flushing seek).
/// Each element's cases extend this suite from its own test folder
/// (`<Element>/<Element>ConformanceCases.swift`).
@Suite struct HostileInputTests {
    struct OddBuffer {
        let bytes: Int
        let pts: UInt64
        let flags: GstBufferFlags?
    }

    /// `count` buffers for a stream of `bytesPerFrame`-byte frames at `rate` frames a second.
    static func oddBuffers(seed: UInt64, count: Int, bytesPerFrame: Int, rate: Int, framesPerBuffer: Int) -> [OddBuffer] {
        var random = Seeded(state: seed)
        var buffers: [OddBuffer] = []
        var time: UInt64 = 0
        let step = UInt64(framesPerBuffer) * 1_000_000_000 / UInt64(rate)
        for _ in 0..<count {
            let bytes: Int
            switch random.next(4) {
            case 0: bytes = 0
            case 1: bytes = bytesPerFrame
            case 2: bytes = bytesPerFrame * (1 + random.next(framesPerBuffer)) + 1 + random.next(bytesPerFrame - 1)
            default: bytes = bytesPerFrame * framesPerBuffer
            }
            let pts: UInt64
            switch random.next(6) {
            case 0: pts = UInt64.max
            case 1: pts = time
            case 2: pts = time > step * 3 ? time - step * 3 : 0
            case 3: pts = UInt64.max / 4 + UInt64(random.next(1000)) * step
            default: time += step; pts = time
            }
            let flags: GstBufferFlags?
            switch random.next(8) {
            case 0: flags = GST_BUFFER_FLAG_DISCONT
            case 1: flags = GST_BUFFER_FLAG_GAP
            default: flags = nil
            }
            buffers.append(OddBuffer(bytes: bytes, pts: pts, flags: flags))
        }
        return buffers
    }

    static func push(_ buffers: [OddBuffer], into harness: Harness, byte: UInt8 = 0x40) -> (pushed: Int, out: Int) {
        var out = 0
        for buffer in buffers {
            harness.push([UInt8](repeating: byte, count: buffer.bytes), pts: buffer.pts, flags: buffer.flags)
            while let output = gst_harness_try_pull(harness.harness) {
                out += 1
                gst_buffer_unref(output)
            }
        }
        return (buffers.count, out)
    }

    /// FLUSH_START, FLUSH_STOP and a new TIME segment, as a flushing seek's source sends them;
    /// `seek` first sends the seek itself upstream through the element (an aggregator only
    /// restarts when its inputs flush for a seek it forwarded).
    static func flush(_ harness: Harness, seek: Bool = false) {
        var seqnum = gst_util_seqnum_next()
        if seek {
            let event = gst_event_new_seek(1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_NONE, -1)!
            seqnum = gst_event_get_seqnum(event)
            _ = gst_harness_push_upstream_event(harness.harness, event)
        }
        let start = gst_event_new_flush_start()!, stop = gst_event_new_flush_stop(1)!
        gst_event_set_seqnum(start, seqnum)
        gst_event_set_seqnum(stop, seqnum)
        _ = gst_harness_push_event(harness.harness, start)
        _ = gst_harness_push_event(harness.harness, stop)
        var segment = GstSegment()
        gst_segment_init(&segment, GST_FORMAT_TIME)
        _ = gst_harness_push_event(harness.harness, gst_event_new_segment(&segment))
    }
}
