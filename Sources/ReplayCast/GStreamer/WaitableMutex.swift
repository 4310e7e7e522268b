import CGStreamer

/// A value shared between threads, some of which wait for it to change: a GMutex guarding
/// it and a GCond broadcast on every `update`. `Synchronization.Mutex` has no way to wait;
/// GLib's pair is what the C elements wait with, so waits behave alike on both sides.
///
/// Nothing runs under the lock but the closures given here, which must not block, process
/// or post.
final class WaitableMutex<Value> {
    // Heap cells: GLib's mutex and condition must not move once initialized.
    private let mutex = UnsafeMutablePointer<GMutex>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<GCond>.allocate(capacity: 1)
    // The mutex keeps accesses apart; a dynamic exclusivity check as well would cost every
    // access (dualmixer reads its flow state once per buffer).
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
        g_mutex_init(mutex)
        g_cond_init(condition)
    }

    deinit {
        g_cond_clear(condition)
        g_mutex_clear(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Reads (or changes, without waking anyone) the value under the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        return body(&value)
    }

    /// Changes the value under the lock and wakes every waiting thread.
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        g_mutex_lock(mutex)
        defer {
            g_cond_broadcast(condition)
            g_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Blocks until `ready` holds (checked under the lock, first at once, then after each
    /// wake), then returns what `then` reads from (or consumes in) the value, still under the
    /// lock, so nothing changes between the wait ending and what it took.
    func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) -> Result) -> Result {
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        while !ready(value) { g_cond_wait(condition, mutex) }
        return body(&value)
    }

    /// As `wait`, but gives up at `deadline` (µs on g_get_monotonic_time's clock); `body`
    /// runs either way.
    func wait<Result>(until ready: (Value) -> Bool, deadline: gint64, then body: (inout Value) -> Result) -> Result {
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        while !ready(value), g_cond_wait_until(condition, mutex, deadline) != 0 {}
        return body(&value)
    }
}

// Every access to the value goes through the lock.
extension WaitableMutex: @unchecked Sendable where Value: Sendable {}
