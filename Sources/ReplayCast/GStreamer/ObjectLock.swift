// SPDX-License-Identifier: LGPL-2.1-or-later
import CReplayCast

/// Runs `body` holding a GstObject's own lock (GST_OBJECT_LOCK), released however `body`
/// leaves. Inside: reads and writes of what that lock guards (an element's pad list and
/// settings, a pad's segment and settings), and nothing that calls out (a signal, a post, a
/// log line, another object's lock taken in the other order).
@inline(__always)
func withObjectLock<Result>(_ object: UnsafeMutableRawPointer, _ body: () throws -> Result) rethrows -> Result {
    rc_object_lock(object)
    defer { rc_object_unlock(object) }
    return try body()
}
