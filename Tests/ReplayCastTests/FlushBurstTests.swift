import CGStreamer
import CGstCheck
import CReplayCast
import Foundation
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

    static func expectInterrupted(_ counts: (taken: Int, refused: Int), _ label: String) {
        #expect(counts.taken > 0 && counts.refused > 0, "\(label): flushes landed mid-burst: \(counts)")
    }

    @Test func volumemeterMeasuresAgain() throws {
        let harness = Harness("volumemeter interval=50000000", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2")
        let counts = Self.burst(harness, count: 2000, flushes: 50, bytes: [UInt8](repeating: 0x40, count: 1920), duration: 10_000_000)
        Self.expectInterrupted(counts, "volumemeter")
        harness.discardOutput()
        HostileInputTests.flush(harness)
        rc_post_flush()
        _ = harness.messages()
        let bytes = Signals.encode(Signals.sine(frequency: 997, amplitude: 0.1, rate: 48000, frames: 24000, channels: 2), as: .s16le)
        for k in 0..<50 {
            harness.push(Array(bytes[(k * 1920)..<((k + 1) * 1920)]), pts: UInt64(k) * 10_000_000)
            harness.discardOutput()
        }
        harness.pushEOS()
        let messages = harness.messages().filter { $0.name == "volumemeter" }
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(messages.count == 10, "\(messages.count) intervals of 50 ms in 0.5 s")
        #expect(messages.flatMap { $0.doubles("rms") }.allSatisfy { abs($0 - (-23.01)) < 0.05 })
    }

    @Test func dualmixerMixesAgain() throws {
        let harness = Harness(factory: "dualmixer", sinkPad: "app", caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=44100,channels=2")
        gst_harness_play(harness.harness)
        let counts = Self.burst(harness, count: 2000, flushes: 50, bytes: [UInt8](repeating: 0x40, count: 1764), duration: 10_000_000)
        Self.expectInterrupted(counts, "dualmixer")
        HostileInputTests.flush(harness, seek: true)
        harness.discardOutput()
        let bytes = Signals.encode(Signals.sine(frequency: 997, amplitude: 0.5, rate: 44100, frames: 22050, channels: 2), as: .s16le)
        for k in 0..<50 {
            harness.push(Array(bytes[(k * 1764)..<((k + 1) * 1764)]), pts: UInt64(k) * 10_000_000)
        }
        harness.pushEOS()
        var frames = 0, peak = 0.0
        harness.pullUntilEOS { mixed in
            _ = mixed.withReadableBytes { data in
                let samples = data.bindMemory(to: Int16.self)
                frames += samples.count / 2
                for sample in samples { peak = max(peak, abs(Double(sample)) / 32768) }
            }
        }
        _ = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(abs(frames - 24000) <= 480, "0.5 s mixed after the flush: \(frames) frames at 48 kHz")
        #expect(abs(peak - 0.5) < 0.02, "the sine's peak: \(peak)")
    }

    @Test func pipcompositorDrawsAgain() throws {
        let harness = Harness(factory: "pipcompositor", sinkPad: "sink_0", caps: "video/x-raw,format=NV12,width=160,height=120,framerate=30/1")
        gst_harness_play(harness.harness)
        let counts = Self.burst(harness, count: 600, flushes: 50, bytes: [UInt8](repeating: 0x10, count: 28800), duration: 33_333_333)
        Self.expectInterrupted(counts, "pipcompositor")
        HostileInputTests.flush(harness, seek: true)
        harness.discardOutput()
        for k in 0..<5 { harness.push([UInt8](repeating: 0x80, count: 28800), pts: UInt64(k) * 33_333_333, duration: 33_333_333) }
        harness.pushEOS()
        var luma: [UInt8] = []
        harness.pullUntilEOS { frame in _ = frame.withReadableBytes { luma.append($0[100 * 160 + 80]) } }
        _ = harness.messages()
        #expect(harness.errors.isEmpty, "\(harness.errors)")
        #expect(luma == [UInt8](repeating: 0x80, count: 5), "the five frames after the flush: \(luma)")
    }
}
