import Foundation
import MediaKernels
import ReplayKitModel
import Testing

/// Costs per frame and per audio second, printed for docs/performance; off unless
/// REPLAYCAST_BENCH=1, and only meaningful in a release build:
/// `REPLAYCAST_BENCH=1 swift test -c release --filter BroadcastBenchmarks`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["REPLAYCAST_BENCH"] == "1"))
struct BroadcastBenchmarks {
    static func nanoseconds(_ body: () throws -> Void) rethrows -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return DispatchTime.now().uptimeNanoseconds - start
    }

    /// The peer the brief sets as the budget, timed in the same run: 300 frames minus 1
    /// frame, so pipeline start-up cancels out.
    @Test func videotestsrcSMPTE() throws {
        let launch = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        guard FileManager.default.isExecutableFile(atPath: launch.path) else { return }
        func run(_ buffers: Int) throws -> UInt64 {
            let process = Process()
            process.executableURL = launch
            process.arguments = ["-q", "videotestsrc", "pattern=smpte", "num-buffers=\(buffers)", "!",
                                 "video/x-raw,format=NV12,width=1170,height=2532", "!", "fakesink"]
            return try Self.nanoseconds {
                try process.run()
                process.waitUntilExit()
            }
        }
        var perFrame: [Double] = []
        for _ in 0 ..< 5 {
            let one = try run(1), many = try run(300)
            perFrame.append(Double(Int64(many) - Int64(one)) / 299)
        }
        perFrame.sort()
        print("videotestsrc smpte 1170x2532: median \(Int(perFrame[2])) ns/frame")
    }

    @Test(arguments: [(1170, 2532), (1125, 2436), (2048, 2732), (1920, 1080)])
    func screenRenderer(size: (Int, Int)) throws {
        let (width, height) = size
        let renderer = try ScreenRenderer(width: width, height: height)
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        let chromaStride = (width + 1) / 2 * 2
        let chroma = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaStride * (height + 1) / 2)
        defer { luma.deallocate(); chroma.deallocate() }
        let frames = 300
        var runs: [Double] = []
        for _ in 0 ..< 5 {
            let elapsed = Self.nanoseconds {
                for frame in 0 ..< frames {
                    renderer.render(frameNumber: UInt32(frame), time: UInt64(frame) * 33_333_333,
                                    yPlane: luma, yStride: width, uvPlane: chroma, uvStride: chromaStride)
                }
            }
            runs.append(Double(elapsed) / Double(frames))
        }
        runs.sort()
        print("ScreenRenderer \(width)x\(height): median \(Int(runs[2])) ns/frame (min \(Int(runs[0])))")
    }

    @Test(arguments: [(ProgramAudio.Content.music, 2, SampleFormat.s16be), (.speech, 1, .s16le), (.speech, 3, .s16le)])
    func programAudio(stream: (ProgramAudio.Content, Int, SampleFormat)) {
        let (content, channels, format) = stream
        let rate = 48000, buffer = 1024, seconds = 20
        let audio = ProgramAudio(content, rate: rate)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: buffer * channels * 2, alignment: 16)
        defer { memory.deallocate() }
        var runs: [Double] = []
        for _ in 0 ..< 3 {
            let elapsed = Self.nanoseconds {
                for start in stride(from: 0, to: rate * seconds, by: buffer) {
                    audio.render(from: Int64(start), count: buffer, channels: channels, format: format, into: memory)
                }
            }
            runs.append(Double(elapsed) / Double(seconds))
        }
        runs.sort()
        let perSecond = runs[1]
        print("ProgramAudio \(content) \(channels) ch 48 kHz: \(Int(perSecond)) ns per audio second = "
            + "\((perSecond / 1e7 * 1000).rounded() / 1000) % of a core")
    }
}
