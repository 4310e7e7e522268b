import ArgumentParser
import Foundation

extension ReplayCastCommand {
    struct CheckSync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-sync",
            abstract: "Measure audio against video in an output made with replaykitsrc sync-marks=true.",
            discussion: """
                Decodes the output (an HLS playlist, an FLV or MP4 file, or a URL), finds each sync mark \
                (a white flash in the video, a click after silence in the audio), prints the audio-video \
                offset at every mark and the drift from the first mark to the last. Exits with status 1 \
                when an offset exceeds the threshold or no mark is found.
                """)

        @Argument(help: "An output: playlist.m3u8, a .flv or .mp4 file, or a URI (file://, http://, rtmp://).")
        var input: String

        @Option(name: .customLong("threshold-ms"), help: "Largest acceptable |offset| in milliseconds: one frame at 30 fps.")
        var thresholdMilliseconds = 33.3

        @Option(help: "Give up after this many seconds of decoding.")
        var timeout = 120.0

        func validate() throws {
            guard thresholdMilliseconds > 0 else { throw ValidationError("--threshold-ms must be positive") }
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() throws {
            let (report, frames, audioSeconds) = try SyncCheck(input: input, timeout: timeout).run()
            print(String(format: "%@: %d video frames, %.2f s of audio, %d marks", input, frames, audioSeconds, report.marks.count))
            print("mark   video (s)   audio (s)   offset (ms)")
            for (index, mark) in report.marks.enumerated() {
                print(String(format: "%4d  %10.3f  %10.3f  %+12.1f", index + 1, mark.video, mark.audio, mark.offset * 1000))
            }
            for time in report.unmatchedFlashes { print(String(format: "flash at %.3f s has no click", time)) }
            for time in report.unmatchedClicks { print(String(format: "click at %.3f s has no flash", time)) }
            guard !report.marks.isEmpty else {
                print("no sync marks found: was the output made with replaykitsrc sync-marks=true?")
                throw ExitCode(1)
            }
            let worst = report.worstOffset * 1000
            let fine = abs(worst) <= thresholdMilliseconds
            let span = (report.marks.last!.video - report.marks.first!.video)
            print(String(format: "worst offset %+.1f ms, drift %+.1f ms over %.1f s; threshold %.1f ms: %@",
                         worst, report.drift * 1000, span, thresholdMilliseconds, fine ? "in sync" : "OUT OF SYNC"))
            if !fine { throw ExitCode(1) }
        }
    }
}
