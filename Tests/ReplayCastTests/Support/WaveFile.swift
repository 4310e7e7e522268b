// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// Writes 16-bit PCM WAV files, the common ground between our pipelines and ffmpeg.
enum WaveFile {
    static func write(_ samples: [Double], rate: Int, channels: Int, to url: URL) throws {
        let pcm = Signals.encode(samples, as: .s16le)
        var data = Data()
        func le32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func le16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); le32(UInt32(36 + pcm.count))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); le32(16); le16(1); le16(UInt16(channels))
        le32(UInt32(rate)); le32(UInt32(rate * channels * 2)); le16(UInt16(channels * 2)); le16(16)
        data.append(contentsOf: Array("data".utf8)); le32(UInt32(pcm.count))
        data.append(contentsOf: pcm)
        try data.write(to: url)
    }
}

/// Runs a command and returns its standard output and error; throws if it cannot start.
func runCommand(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A fresh directory of its own for each call: tests run in parallel in one process.
func temporaryDirectory(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replaycast-tests-\(name)-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
