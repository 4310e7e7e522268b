// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CGstCheck
import CReplayCast
import Foundation
import ReplayCastSupport
import Testing

/// FLUSH_START and FLUSH_STOP landing in the middle of a burst of buffers: one thread
/// pushes as a source's task does (each push under the source pad's stream lock), another
/// interrupts it as a flushing seek does (FLUSH_START at any moment, then FLUSH_STOP and a
/// new segment under the stream lock). The element neither crashes, deadlocks nor raises a
/// GLib warning, and after a last flush it measures, mixes or draws exactly again.
@Suite struct FlushBurstTests {
    /// The harness crosses to the pushing thread; the stream lock keeps the two apart.
    struct Shared: @unchecked Sendable { let harness: Harness }

    /// Pushes `count` buffers of `bytes` each `duration` apart from a thread of its own while
    /// this one flushes `flushes` times; returns how many pushes were taken and refused.
    static func burst(_ harness: Harness, count: Int, flushes: Int, bytes: [UInt8], duration: UInt64) -> (taken: Int, refused: Int) {
        let shared = Shared(harness: harness)
        let tally = Tally()
        let done = DispatchSemaphore(value: 0)
        let pusher = Thread {
            let h = shared.harness.harness
            for index in 0..<count {
                g_rec_mutex_lock(&h.pointee.srcpad.pointee.stream_rec_lock)
                let flow = shared.harness.push(bytes, pts: UInt64(index) * duration, duration: duration)
                g_rec_mutex_unlock(&h.pointee.srcpad.pointee.stream_rec_lock)
                tally.add(flow == GST_FLOW_OK)
                // As a source's task pauses on FLUSHING until the flush ends: pushing on at
                // once would keep the stream lock from FLUSH_STOP (the lock is not fair).
                while flow == GST_FLOW_FLUSHING && h.pointee.srcpad.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue != 0 {
                    Thread.sleep(forTimeInterval: 0.0002)
                }
            }
            done.signal()
        }
        pusher.start()
        let h = harness.harness
        for _ in 0..<flushes {
            Thread.sleep(forTimeInterval: 0.002)
            _ = gst_harness_push_event(h, gst_event_new_flush_start())
            g_rec_mutex_lock(&h.pointee.srcpad.pointee.stream_rec_lock)
            _ = gst_harness_push_event(h, gst_event_new_flush_stop(1))
            var segment = GstSegment()
            gst_segment_init(&segment, GST_FORMAT_TIME)
            _ = gst_harness_push_event(h, gst_event_new_segment(&segment))
            g_rec_mutex_unlock(&h.pointee.srcpad.pointee.stream_rec_lock)
        }
        done.wait()
        return tally.counts
    }

    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0, refused = 0
        func add(_ ok: Bool) { lock.withLock { if ok { taken += 1 } else { refused += 1 } } }
        var counts: (taken: Int, refused: Int) { lock.withLock { (taken, refused) } }
    }

    /// Plays `harness` (an aggregator's), bursts `count` buffers of `size` bytes with 50
    /// flushes landing in the middle, then flushes once more (a flushing seek for an
    /// aggregator, which restarts only for a seek it forwarded).
    static func interruptThenFlush(_ harness: Harness, count: Int, size: Int, duration: UInt64, aggregator: Bool, _ label: String) {
        if aggregator { gst_harness_play(harness.harness) }
        let counts = burst(harness, count: count, flushes: 50, bytes: [UInt8](repeating: 0x40, count: size), duration: duration)
        #expect(counts.taken > 0 && counts.refused > 0, "\(label): flushes landed mid-burst: \(counts)")
        if !aggregator { harness.discardOutput() }
        HostileInputTests.flush(harness, seek: aggregator)
        harness.discardOutput()
    }

    @Test(arguments: ElementFixture.taking(\.flushBurst))
    func flushesInTheMiddleOfABurstThenTheElementWorksAgain(_ fixture: ElementFixture) throws {
        let c = try #require(fixture.flushBurst.value)
        let harness = try c.make()
        Self.interruptThenFlush(harness, count: c.burst, size: c.size, duration: c.duration, aggregator: c.aggregator, fixture.element)
        c.worksAgain(harness, "\(fixture.element) after a flushed burst")
    }
}
