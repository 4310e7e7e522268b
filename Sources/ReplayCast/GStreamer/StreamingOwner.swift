// SPDX-License-Identifier: LGPL-2.1-or-later
import CReplayCast
import Glibc
import Synchronization

/// Debug builds' owner check for state that one thread at a time may touch and that
/// therefore has no lock: an element's streaming state, used by the streaming thread and
/// by state changes while streaming is halted. The thread inside owns it; a second thread
/// entering meanwhile is a wrong-thread access, a data race that would otherwise show
/// rarely and as corrupted numbers. It is reported as a GLib critical, which the test
/// suites (G_DEBUG=fatal-warnings) turn into a failure. Release builds compile it away.
struct StreamingOwner: ~Copyable {
    let name: StaticString
    #if DEBUG
    /// The owning thread's id, 0 when none is inside.
    private let owner = Atomic<UInt>(0)
    #endif

    init(_ name: StaticString) {
        self.name = name
    }

    /// Runs `body` as the owner; the same thread may enter again from inside.
    @inline(__always)
    func run<R>(_ body: () throws -> R) rethrows -> R {
        #if DEBUG
        let me = UInt(pthread_self())
        let (entered, current) = owner.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        if !entered && current != me {
            GLibMessages.critical("\(name): streaming state entered by thread \(me) while thread \(current) is inside it")
        }
        defer { if entered { owner.store(0, ordering: .releasing) } }
        #endif
        return try body()
    }
}
