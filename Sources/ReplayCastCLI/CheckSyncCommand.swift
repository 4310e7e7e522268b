// SPDX-License-Identifier: LGPL-2.1-or-later
import ArgumentParser
import Foundation
import ReplayCastKit
import ReplayCastTools

extension ReplayCastCommand {
    struct CheckSync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-sync",
            abstract: "Measure audio against video in an output made with replaykitsrc sync-marks=true.",
            discussion: """
                Decodes the output (an HLS playlist, an FLV or MP4 file, or a URL), finds each sync mark \
                (a white flash in the video, a click after silence in the audio), prints the audio-video \
                offset at every mark and the drift from the first mark to the last. Exits with status 1 \
                when an offset exceeds the threshold or no mark is found.

                It also reads the frame number in every frame's barcode strip and reports the pacing: \
                output frames that repeat the frame before (a freeze), numbers skipped (missing frames), \
                the longest freeze, and at each mark what of those happened within 5 output frames of \
                its flash. A pause in the broadcast stops the screen's frames: where the output holds the \
                last picture it is a freeze as long as the pause; where it shows a background instead \
                (pipcompositor on replaykitsrc's GAP events), frames without a strip (unreadable).
                """)

        @Argument(help: "An output: playlist.m3u8, a .flv or .mp4 file, or a URI (file://, http://, rtmp://).")
        var input: String

        @Option(name: .customLong("threshold-ms"), help: "Largest acceptable |offset| in milliseconds: one frame at 30 fps.")
        var thresholdMilliseconds = 33.3

        @Option(name: .customLong("max-freeze-ms"),
                help: "Fail when one frame number stays on screen longer than this many milliseconds (default: no limit).")
        var maxFreezeMilliseconds: Double?

        @Option(help: "Give up after this many seconds of decoding.")
        var timeout = 120.0

        func validate() throws {
            guard thresholdMilliseconds > 0 else { throw ValidationError("--threshold-ms must be positive") }
            if let maxFreezeMilliseconds, !(maxFreezeMilliseconds > 0) {
                throw ValidationError("--max-freeze-ms must be positive")
            }
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            let findings = try await SyncCheck.measure(input, timeout: .seconds(timeout))
            let report = findings.marks, pacing = findings.pacing
            print(String(format: "%@: %d video frames, %.2f s of audio, %d marks", input, findings.videoFrames,
                         findings.audioSeconds, report.marks.count))
            // repeated and missing: within FramePacing.reach output frames of the mark's flash.
            print("mark   video (s)   audio (s)   offset (ms)   repeated   missing")
            for (index, mark) in report.marks.enumerated() {
                let near = pacing.counts(around: mark.video)
                print(String(format: "%4d  %10.3f  %10.3f  %+12.1f  %9d  %8d", index + 1, mark.video, mark.audio,
                             mark.offset * 1000, near.repeated, near.missing))
            }
            for time in report.unmatchedFlashes { print(String(format: "flash at %.3f s has no click", time)) }
            for time in report.unmatchedClicks { print(String(format: "click at %.3f s has no flash", time)) }
            let summary = pacing.summary()
            print(Self.pacingLine(summary))
            var failed = false
            if report.marks.isEmpty {
                print("no sync marks found: was the output made with replaykitsrc sync-marks=true?")
                failed = true
            } else {
                let worst = report.worstOffset * 1000
                let fine = abs(worst) <= thresholdMilliseconds
                let span = (report.marks.last!.video - report.marks.first!.video)
                print(String(format: "worst offset %+.1f ms, drift %+.1f ms over %.1f s; threshold %.1f ms: %@",
                             worst, report.drift * 1000, span, thresholdMilliseconds, fine ? "in sync" : "OUT OF SYNC"))
                failed = !fine
            }
            if let limit = maxFreezeMilliseconds, !Self.freezeWithin(limit, summary) { failed = true }
            if failed { throw ExitCode(1) }
        }

        /// `pacing: 598 frames read (0 unreadable), 3 repeated, 2 missing, longest freeze 3 frames (100.0 ms) at 12.433 s`
        static func pacingLine(_ summary: FramePacing.Summary) -> String {
            let counts = summary.counts
            var line = "pacing: \(summary.read) frames read (\(summary.unreadable) unreadable)"
            guard let freeze = summary.longestFreeze else { return line + ": no barcode strip read, pacing unknown" }
            line += ", \(counts.repeated) repeated, \(counts.missing) missing"
            if counts.backwards > 0 { line += ", \(counts.backwards) out of order" }
            return line + String(format: ", longest freeze %d frame%@ (%.1f ms) at %.3f s", freeze.frames,
                                 freeze.frames == 1 ? "" : "s", freeze.duration * 1000, freeze.start)
        }

        /// Prints the verdict on `--max-freeze-ms`; an output without a readable strip fails it.
        static func freezeWithin(_ limit: Double, _ summary: FramePacing.Summary) -> Bool {
            guard let freeze = summary.longestFreeze else {
                print(String(format: "--max-freeze-ms %.1f: no frame number read, freezes cannot be measured", limit))
                return false
            }
            let milliseconds = freeze.duration * 1000
            let fine = milliseconds <= limit
            print(String(format: "longest freeze %.1f ms %@ --max-freeze-ms %.1f", milliseconds, fine ? "within" : "EXCEEDS", limit))
            return fine
        }
    }
}
