// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// A program started with posix_spawn and reaped with waitpid. Foundation's `Process` sets
/// up a run-loop wake-up socket over the loopback, which a fresh network namespace has
/// down, and then hangs. The program starts with no signal blocked and every signal's
/// default action, whatever the calling thread blocks or this process ignores: the Swift
/// runtime's threads block most signals, and a server started with that mask could not be
/// stopped with SIGTERM.
public final class ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let pid: pid_t
    private let output: Int32?
    /// The wait status once reaped.
    private var status: Int32?

    /// Runs `arguments` (looked up on PATH) with this process's standard streams, or with its
    /// output and errors captured when `capturing`.
    public init(_ arguments: [String], capturing: Bool = false) throws(Failure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipe: [Int32] = [-1, -1]
        if capturing {
            guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        if capturing { close(pipe[1]) }
        guard result == 0 else {
            if capturing { close(pipe[0]) }
            throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        output = capturing ? pipe[0] : nil
    }

    /// Everything the program wrote, once it closed its output (capturing only).
    public func readOutput() -> String {
        guard let output else { return "" }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output, &chunk, chunk.count)
            if count > 0 { bytes += chunk[..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The exit status (128 + the signal when a signal ended it); nil while it runs when
    /// not `blocking`.
    public func exitStatus(blocking: Bool) -> Int32? {
        if status == nil {
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            if reaped == pid { status = raw } else if reaped < 0 && errno == EINTR { return exitStatus(blocking: blocking) }
        }
        guard let status else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    public func send(_ signal: Int32) { if status == nil { kill(pid, signal) } }

    deinit { if let output { close(output) } }
}
