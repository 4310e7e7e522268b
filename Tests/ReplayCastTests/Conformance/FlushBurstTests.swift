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

    @Test func volumemeterMeasuresAgain() throws {
        let harness = Harness("volumemeter interval=50000000", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2")
        Self.interruptThenFlush(harness, count: 2000, size: 1920, duration: 10_000_000, aggregator: false, "volumemeter")
        HostileInputTests.expectMeasuresAgain(harness, "after a flushed burst")
    }

    @Test func dualmixerMixesAgain() throws {
        let harness = Harness(factory: "dualmixer", sinkPad: "app", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=44100,channels=2")
        Self.interruptThenFlush(harness, count: 2000, size: 1764, duration: 10_000_000, aggregator: true, "dualmixer")
        HostileInputTests.expectMixesAgain(harness, "after a flushed burst")
        _ = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
    }

    @Test func pipcompositorDrawsAgain() throws {
        let harness = Harness(factory: "pipcompositor", sinkPad: "sink_0", caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1")
        Self.interruptThenFlush(harness, count: 600, size: 28800, duration: 33_333_333, aggregator: true, "pipcompositor")
        for k in 0..<5 { harness.push([UInt8](repeating: 0x80, count: 28800), pts: UInt64(k) * 33_333_333, duration: 33_333_333) }
        harness.pushEOS()
        var luma: [UInt8] = []
        harness.pullUntilEOS { frame in _ = frame.withReadableBytes { luma.append($0[100 * 160 + 80]) } }
        _ = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(luma == [UInt8](repeating: 0x80, count: 5), "the five frames after the flush: \(luma)")
    }

    /// A publisher with no server, keeping what it is handed: flushes in the middle of a burst
    /// of access units and a last flush after it leave it taking buffers and ending in EOS.
    @Test func rtmpreconnectsinkKeepsTakingAndEnds() throws {
        let harness = try HostileInputTests.disconnectedPublisher("burst")
        Self.interruptThenFlush(harness, count: 50_000, size: 97, duration: 33_333_333, aggregator: false, "rtmpreconnectsink")
        let after = (0..<30).filter { k in
            harness.push([UInt8](repeating: 0x40, count: 97), pts: UInt64(k) * 33_333_333, duration: 33_333_333) == GST_FLOW_OK
        }.count
        harness.pushEOS()
        harness.waitForSinkEOS()
        #expect(after == 30, "access units taken after the last flush: \(after) of 30")
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(harness.endsOfStream >= 1, "EOS without a connection")
    }
}
