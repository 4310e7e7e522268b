// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// A real nginx-rtmp on 127.0.0.1, started with scripts/rtmp-server on a port of its own and
/// recording into a fresh folder: rtmp://127.0.0.1:PORT/live/NAME ends up in NAME.flv there.
final class RtmpServer {
    let port: Int
    let recordings: URL
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/rtmp-server").path

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Tries a few ports at random: the script refuses one another program holds.
    init() throws {
        recordings = try temporaryDirectory("rtmp")
        var attempts: [String] = []
        for _ in 0..<5 {
            let candidate = Int.random(in: 20000..<60000)
            let (status, output) = try runCommand(Self.script, ["start", "\(candidate)", recordings.path])
            if status == 0 {
                port = candidate
                return
            }
            attempts.append("\(candidate): \(output)")
        }
        throw StartFailure(description: "scripts/rtmp-server did not start: \(attempts.joined(separator: "; "))")
    }

    func url(_ stream: String) -> String { "rtmp://127.0.0.1:\(port)/live/\(stream)" }

    func recording(_ stream: String) -> URL { recordings.appendingPathComponent("\(stream).flv") }

    private var running = true

    /// Stops nginx and waits until it is gone: the recordings are complete then.
    func stop() {
        guard running else { return }
        running = false
        _ = try? runCommand(Self.script, ["stop", "\(port)"])
    }

    /// Starts it again, on the same port and folder, after `stop`.
    func start() throws {
        guard !running else { return }
        let (status, output) = try runCommand(Self.script, ["start", "\(port)", recordings.path])
        guard status == 0 else { throw StartFailure(description: "scripts/rtmp-server did not start again on \(port): \(output)") }
        running = true
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: recordings)
    }
}
