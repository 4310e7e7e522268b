// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit
import ReplayCastTools

/// A real SRT receiver on 127.0.0.1 (scripts/srt-receiver: srt-live-transmit in listener
/// mode) on a port of its own, recording each caller's connection to recording-N.ts in a
/// fresh folder.
final class SrtReceiver {
    let port: Int
    let recordings: URL
    private let home: URL
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/srt-receiver").path

    /// Tries a few ports at random: the script refuses one another program holds.
    init() throws {
        recordings = try temporaryDirectory("srt")
        home = try temporaryDirectory("srt-home")
        var attempts: [String] = []
        for _ in 0..<5 {
            let candidate = Int.random(in: 20000..<60000)
            let (status, output) = try Self.run(["start", "\(candidate)", recordings.path], home: home)
            if status == 0 {
                port = candidate
                return
            }
            attempts.append("\(candidate): \(output)")
        }
        throw RtmpServer.StartFailure(description: "scripts/srt-receiver did not start: \(attempts.joined(separator: "; "))")
    }

    var url: String { "srt://127.0.0.1:\(port)" }

    /// The recording of the `n`th connection, from 1.
    func recording(_ n: Int) -> URL { recordings.appendingPathComponent("recording-\(n).ts") }

    private var running = true

    /// Stops the receiver: the recordings are complete then.
    func stop() {
        guard running else { return }
        running = false
        _ = try? Self.run(["stop", "\(port)"], home: home)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: recordings)
        try? FileManager.default.removeItem(at: home)
    }

    /// Through ChildProcess, not Foundation's Process: the receiver must not inherit the
    /// signal mask of a test thread, which blocks SIGTERM, or `stop` could not end it.
    private static func run(_ arguments: [String], home: URL) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(["/usr/bin/env", "SRT_RECEIVER_HOME=\(home.path)", script] + arguments, capturing: true)
        let output = child.readOutput()
        return (child.exitStatus(blocking: true) ?? 1, output)
    }
}
