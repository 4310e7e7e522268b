// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport

/// Meter messages leave the streaming thread through one poster thread, in batches.
///
/// Why: every `gst_bus_post` that finds the bus idle wakes its reader (a syscall and a
/// context switch on each side): measured here at 15-25 µs of CPU per message, more than
/// volumemeter spends measuring a whole 10 ms buffer. The bus coalesces wake-ups for
/// messages posted while its reader is still awake, so this thread collects what arrives
/// within `batchWindow` of a first message and posts it in one go: one wake-up per batch when
/// a pipeline runs faster than real time, at most `batchWindow` of extra delay in a live one.
/// Handing a message over costs the streaming thread one queue push and no allocation (the
/// message itself is queued; it holds its element). Order is kept (one thread, FIFO), and
/// `flush` lets a streaming thread wait until its messages are out, so the last interval is
/// on the bus before the EOS that follows it.
final class MessagePoster: @unchecked Sendable {
    private static let shared = MessagePoster()
    private static let batchWindow: gint64 = 10_000 // µs
    /// Queued by `flush` between the messages; never a valid message address.
    private static var fence: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

    /// A GAsyncQueue of messages and fences; the only lock a streaming thread takes to post.
    private let queue: OpaquePointer
    private let fences = WaitableMutex(Fences())

    /// `urgent` ends a batch window early: a flush is waiting. Pushing a message leaves it
    /// alone (no wake-up per message), so a stream's last messages reach the bus at once
    /// instead of one window later. A fence answered outside a window leaves it set, which
    /// only shortens the next window.
    private struct Fences {
        var asked = 0, answered = 0
        var urgent = false
    }

    private init() {
        queue = g_async_queue_new()
        let thread = g_thread_new("replaycast-post", { poster in
            Unmanaged<MessagePoster>.fromOpaque(poster!).takeUnretainedValue().run()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
        g_thread_unref(thread)
    }

    /// Posts `message` (taken) from its source element, soon, on the poster thread.
    static func post(_ message: UnsafeMutablePointer<GstMessage>) {
        g_async_queue_push(shared.queue, message)
    }

    /// Returns once every message queued before the call has been posted.
    static func flush() {
        let poster = shared
        // Fences enter the queue in ticket order: a ticket answered means every message
        // queued before it is out.
        let ticket = poster.fences.update { fences -> Int in
            fences.asked += 1
            fences.urgent = true
            g_async_queue_push(poster.queue, fence)
            return fences.asked
        }
        poster.fences.wait(until: { $0.answered >= ticket }) { _ in }
    }

    private func run() {
        while true {
            let first = g_async_queue_pop(queue)!
            // A fence is waited for: answer it at once; a message may wait for company.
            if first != Self.fence {
                let deadline = g_get_monotonic_time() + Self.batchWindow
                fences.wait(until: { $0.urgent }, deadline: deadline) { $0.urgent = false }
            }
            // Only what has arrived by now: a stream that keeps producing must not keep this
            // loop posting one message at a time.
            var batch = g_async_queue_length(queue)
            deliver(first)
            while batch > 0, let next = g_async_queue_try_pop(queue) {
                deliver(next)
                batch -= 1
            }
        }
    }

    private func deliver(_ item: UnsafeMutableRawPointer) {
        guard item != Self.fence else {
            fences.update { $0.answered += 1 }
            return
        }
        let message = item.assumingMemoryBound(to: GstMessage.self)
        guard let source = message.pointee.src else {
            gst_message_unref(message)
            return
        }
        // Our own reference for the call: the message's goes with it.
        gst_object_ref(source)
        gst_element_post_message(rc_element(source), message)
        gst_object_unref(source)
    }
}
