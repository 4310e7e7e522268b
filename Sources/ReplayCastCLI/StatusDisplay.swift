// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit

/// Writes a line to stdout at once: print() holds lines back when stdout is a pipe, and a
/// log (or a test waiting for the preview address) must see them as they happen.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// How `replaycast run` shows a running broadcast: a screen redrawn in place on a terminal,
/// plain lines otherwise (logs, CI). Errors and warnings go to stderr in both.
protocol StatusDisplay {
    /// Called about four times a second and after every meter message.
    mutating func show(_ status: BroadcastStatus)
    mutating func interrupt(_ text: String)
    mutating func finish(_ status: BroadcastStatus)
}

extension StatusDisplay {
    static func bitrate(_ status: BroadcastStatus) -> String {
        guard status.elapsed > 0 else { return "0 kb/s" }
        let bits = status.bitrate
        return bits >= 1e6 ? String(format: "%.2f Mb/s", bits / 1e6) : String(format: "%.0f kb/s", bits / 1e3)
    }

    /// `cells` cells from -60 dBFS to 0 dBFS; `|` marks the held peak.
    static func bar(_ dB: Double, hold: Double?, cells: Int = 30) -> String {
        func cell(_ level: Double) -> Int { max(0, min(cells, Int(((level + 60) / 60 * Double(cells)).rounded()))) }
        var chars = Array(String(repeating: "#", count: cell(dB)) + String(repeating: ".", count: cells - cell(dB)))
        if let hold, cell(hold) > 0 { chars[cell(hold) - 1] = "|" }
        return String(chars)
    }

    static func lufs(_ value: Double?) -> String {
        guard let value, value > -200 else { return "  -inf" }
        return String(format: "%6.1f", value)
    }
}

/// Plain lines: one per meter at most twice a second (as before), a status line every 5 s.
struct StatusLog: StatusDisplay {
    let quiet: Bool
    private var lastMeterLine: [String: Double] = [:]
    private var lastStatusLine = 0.0

    init(quiet: Bool) { self.quiet = quiet }

    mutating func show(_ status: BroadcastStatus) {
        guard !quiet else { return }
        let now = status.elapsed
        for meter in status.meters where now - (lastMeterLine[meter.source] ?? -1) >= 0.5 {
            lastMeterLine[meter.source] = now
            let r = meter.reading
            var line = String(format: "%8.2fs %@", r.runningTime.seconds, meter.source)
            for c in r.rms.indices {
                line += String(format: "  ch%d %@ %6.1f dB (peak %6.1f)", c, Self.bar(r.rms[c], hold: nil, cells: 20), r.rms[c], r.peak[c])
            }
            if let momentary = r.momentary { line += String(format: "  M %6.1f LUFS", momentary) }
            say(line)
        }
        if now - lastStatusLine >= 5 {
            lastStatusLine = now
            say(Self.summary(status))
        }
    }

    static func summary(_ status: BroadcastStatus) -> String {
        var line = String(format: "status %.1f s: video in %d out %d dropped %d, %@, %d segments",
                          status.elapsed, status.traffic.framesIn, status.traffic.framesOut,
                          status.traffic.droppedFrames, bitrate(status), status.segments)
        for output in status.rtmp { line += ", \(status.scheme(output)) \(status.rtmpState(output))" }
        for output in status.srt { line += ", SRT \(status.srtState(output))" }
        return line
    }

    mutating func interrupt(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    mutating func finish(_ status: BroadcastStatus) {
        say(Self.summary(status))
        say(String(format: "finished after %.1f s, %d meter messages", status.elapsed, status.meterMessages))
    }
}
