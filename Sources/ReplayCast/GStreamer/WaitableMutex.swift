// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import ReplayCastSupport

/// A value shared between threads, some of which wait for it to change: a pthread mutex
/// guarding it and a condition variable broadcast on every `update`. `Synchronization.Mutex`
/// has no way to wait. pthread's pair rather than GLib's: GLib builds GMutex and GCond on
/// futexes that ThreadSanitizer cannot see, and would then report every value handed over
/// here as a race (`Locked` says the same of Mutex).
///
/// Nothing runs under the lock but the closures given here, which must not block, process
/// or post.
final class WaitableMutex<Value> {
    // Heap cells: the mutex and condition must not move once initialized.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // The mutex keeps accesses apart; a dynamic exclusivity check as well would cost every
    // access (dualmixer reads its flow state once per buffer).
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        // Deadlines are on g_get_monotonic_time's clock, CLOCK_MONOTONIC.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Reads (or changes, without waking anyone) the value under the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }

    /// Changes the value under the lock and wakes every waiting thread.
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Blocks until `ready` holds (checked under the lock, first at once, then after each
    /// wake), then returns what `then` reads from (or consumes in) the value, still under the
    /// lock, so nothing changes between the wait ending and what it took.
    func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return body(&value)
    }

    /// As `wait`, but gives up at `deadline` (µs on g_get_monotonic_time's clock); `body`
    /// runs either way.
    func wait<Result>(until ready: (Value) -> Bool, deadline: Int, then body: (inout Value) -> Result) -> Result {
        var end = timespec(tv_sec: deadline / 1_000_000, tv_nsec: deadline % 1_000_000 * 1000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value), pthread_cond_timedwait(condition, mutex, &end) != ETIMEDOUT {}
        return body(&value)
    }
}

// Every access to the value goes through the lock.
extension WaitableMutex: @unchecked Sendable where Value: Sendable {}
