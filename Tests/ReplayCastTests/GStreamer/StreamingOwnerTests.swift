// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
@testable import ReplayCast
import Testing

/// The debug builds' owner check on streaming state (the tests are a debug build): a second
/// thread inside while the first is must raise a critical; turns and re-entry must not.
@Suite struct StreamingOwnerTests {
    final class Shared: Sendable {
        let owner: StreamingOwner
        init(name: StaticString) { owner = StreamingOwner(name) }
    }

    /// Thread A enters and stays inside until the calling thread has made `entries`
    /// entries of its own; returns the criticals seen. Each call's owner has a name of its
    /// own: the tests run in parallel, and the criticals are counted by their text.
    static func criticals(owner name: StaticString, whileAnotherThreadIsInside: Bool, entries: Int) -> Int {
        GStreamerSetup.ensure()  // installs ExpectedWarnings' handler when this suite runs alone
        let shared = Shared(name: name)
        let inside = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        return ExpectedWarnings.counting("\(name): streaming state entered by thread") {
            let thread = Thread {
                shared.owner.run {
                    inside.signal()
                    if whileAnotherThreadIsInside { done.wait() }
                }
                finished.signal()
            }
            thread.start()
            inside.wait()
            if !whileAnotherThreadIsInside { finished.wait() }
            var ran = 0
            for _ in 0..<entries { shared.owner.run { shared.owner.run { ran += 1 } } }
            #expect(ran == entries)
            if whileAnotherThreadIsInside {
                done.signal()
                finished.wait()
            }
        }
    }

    /// Each entry is two nested ones, and every entry by the wrong thread is reported.
    @Test func aSecondThreadInsideIsACritical() {
        #expect(Self.criticals(owner: "owner-test-inside", whileAnotherThreadIsInside: true, entries: 3) == 6)
    }

    @Test func takingTurnsAndReenteringAreNot() {
        #expect(Self.criticals(owner: "owner-test-turns", whileAnotherThreadIsInside: false, entries: 3) == 0)
    }
}
