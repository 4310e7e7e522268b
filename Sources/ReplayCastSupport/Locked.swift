// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// A value shared between threads, behind a pthread mutex; for waiting until it changes, see
/// `WaitableMutex`.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path hands the lock over through a
/// priority-inheritance futex inside the Swift runtime, which is built without
/// ThreadSanitizer, so the sanitizer sees no order between two threads that met at the lock
/// and reports what it guards as a race. It intercepts pthread mutexes; uncontended, either
/// lock costs one atomic exchange.
///
/// Nothing runs under the lock but the closures given here, which must not block, process
/// or post. The value may be noncopyable: it never leaves the lock, only borrowed by them.
package final class Locked<Value: ~Copyable> {
    // A heap cell: a pthread mutex must not move once initialized.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // The mutex keeps accesses apart; a dynamic exclusivity check as well would cost every access.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: consuming Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Reads or changes the value under the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

// Every access to the value goes through the lock.
extension Locked: @unchecked Sendable where Value: Sendable & ~Copyable {}
