// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit

/// The terminal status screen: one block of lines redrawn in place (cursor up, clear line),
/// so it reads like a dashboard instead of scrolling. Messages printed in between are put
/// above the block, which is then drawn again below them.
struct StatusScreen: StatusDisplay {
    private var drawnLines = 0
    private var lastDraw = -1.0

    mutating func show(_ status: BroadcastStatus) {
        guard status.elapsed - lastDraw >= 0.25 else { return }
        lastDraw = status.elapsed
        draw(Self.lines(status))
    }

    mutating func interrupt(_ text: String) {
        erase()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    mutating func finish(_ status: BroadcastStatus) {
        draw(Self.lines(status))
        write(String(format: "finished after %.1f s, %d meter messages\n", status.elapsed, status.meterMessages))
    }

    private mutating func erase() {
        guard drawnLines > 0 else { return }
        write("\u{1B}[\(drawnLines)A\u{1B}[J")
        drawnLines = 0
    }

    private mutating func draw(_ lines: [String]) {
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { text += "\u{1B}[2K" + line + "\n" }
        text += "\u{1B}[J"
        write(text)
        drawnLines = lines.count
    }

    /// Unbuffered, so the screen and stderr's messages never overtake each other.
    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func lines(_ status: BroadcastStatus) -> [String] {
        let elapsed = status.elapsed
        let memory = Broadcast.memoryFootprint.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "?"
        var lines = [
            String(format: "ReplayCast  %@  %02d:%04.1f  memory %@", status.title, Int(elapsed) / 60,
                   elapsed.truncatingRemainder(dividingBy: 60), memory),
            "broadcast   \(status.broadcast)",
            String(format: "video       in %d  out %d  dropped %d    output %@", status.traffic.framesIn,
                   status.traffic.framesOut, status.traffic.droppedFrames, bitrate(status)),
            "segments    \(status.segments) written",
        ]
        for output in status.rtmp {
            lines.append(status.scheme(output).padding(toLength: 12, withPad: " ", startingAt: 0)
                         + "\(output.location)  \(status.rtmpState(output))")
        }
        for output in status.srt { lines.append("SRT         \(output.uri)  \(status.srtState(output))") }
        for meter in status.meters {
            let r = meter.reading
            let names = r.rms.count == 2 ? ["L", "R"] : r.rms.indices.map { "\($0)" }
            for c in r.rms.indices {
                let hold = c < r.decay.count ? r.decay[c] : nil
                let label = (c == 0 ? meter.source : "").padding(toLength: 11, withPad: " ", startingAt: 0)
                lines.append(label + String(format: " %@ %@ %6.1f dB  peak %6.1f", names[c], bar(r.rms[c], hold: hold),
                                            r.rms[c], hold ?? r.peak[c]))
            }
            if r.momentary != nil {
                let truePeak = r.truePeak.max().map { String(format: "%.1f dBTP", $0) } ?? "-"
                lines.append("loudness    M \(lufs(r.momentary))  S \(lufs(r.shortTerm))  I \(lufs(r.integrated)) LUFS   true peak \(truePeak)")
            }
        }
        return lines
    }
}
