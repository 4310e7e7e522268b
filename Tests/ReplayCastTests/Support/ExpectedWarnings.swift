// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Glibc
import ReplayCast
import ReplayCastSupport

/// Any GLib warning or critical aborts the test process (as G_DEBUG=fatal-warnings makes them
/// fatal, which scripts/test sets; made so here too, for a plain `swift test`), except one a
/// test has said it expects: property setters warn about refused values as GObject does,
/// and a test of that refusal must see the warning rather than die of it.
/// An expectation holds for the thread that made it: tests run in parallel, and two of them
/// may expect the same text at once (one test's arguments, run side by side).
enum ExpectedWarnings {
    private struct Key: Hashable {
        let thread: UInt
        let text: String
    }
    private static let expected = Locked<[Key: Int]>([:])

    /// Runs `body` with warnings containing `text`, raised on this thread, tolerated;
    /// returns how many were seen.
    static func counting(_ text: String, during body: () throws -> Void) rethrows -> Int {
        let key = Key(thread: UInt(pthread_self()), text: text)
        expected.withLock { $0[key] = 0 }
        defer { expected.withLock { _ = $0.removeValue(forKey: key) } }
        try body()
        return expected.withLock { $0[key] ?? 0 }
    }

    static func install() {
        let fatal = g_log_set_always_fatal(GLogLevelFlags(rawValue: 0)).rawValue
            | rc_log_level_warning().rawValue | rc_log_level_critical().rawValue
        g_log_set_always_fatal(GLogLevelFlags(rawValue: fatal))
        g_test_log_set_fatal_handler({ _, _, message, _ in
            let text = message.map { String(cString: $0) } ?? ""
            let thread = UInt(pthread_self())
            let match = ExpectedWarnings.expected.withLock { table -> Bool in
                guard let key = table.keys.first(where: { $0.thread == thread && text.contains($0.text) }) else {
                    return false
                }
                table[key, default: 0] += 1
                return true
            }
            return match ? 0 : 1
        }, nil)
    }
}
