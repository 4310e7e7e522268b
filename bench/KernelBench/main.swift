// SPDX-License-Identifier: LGPL-2.1-or-later
// The kernels' own costs, away from GStreamer: resampler, mixing kernels, the PiP draw next to
// a frame copy, the emulated screen and programme audio (with videotestsrc timed in the same
// run as the budget). Prints; asserts nothing. Run by bench/kernels (a release build).
import Foundation
import MediaKernels
import MediaKernelsAVX2
import ReplayKitModel

func nanoseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// Best of `runs` timings of `body`.
func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var result = Double.infinity
    for _ in 0 ..< runs { result = min(result, try nanoseconds(body)) }
    return result
}

/// Deterministic noise in [-1, 1).
func noise(count: Int) -> [Float] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0 ..< count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(Int32(truncatingIfNeeded: state >> 32)) / 2_147_483_648
    }
}

func resampler() {
    print("resampler, ns per output frame (best of 5):")
    for (inputRate, channels) in [(44100, 1), (44100, 2), (32000, 1), (24000, 1), (96000, 2), (48000, 2), (44101, 2)] {
        let frames = inputRate * 10
        let input = noise(count: frames * channels)
        let output = UnsafeMutablePointer<Float>.allocate(capacity: 48000 * 11 * channels)
        defer { output.deallocate() }
        var setup = 0.0
        var resampler: Resampler!
        setup = nanoseconds { resampler = Resampler(inputRate: inputRate, outputRate: 48000, channels: channels) }
        var produced = 0
        let elapsed = best(5) {
            resampler.reset(firstOutputAtInputFrame: 0)
            produced = 0
            input.withUnsafeBufferPointer { samples in
                var done = 0
                while done < frames {
                    let n = min(1024, frames - done)
                    var taken = 0
                    while taken < n {
                        taken += resampler.write(samples.baseAddress! + (done + taken) * channels, count: n - taken)
                        produced += resampler.read(into: output + produced * channels, count: 48000 * 11 - produced)
                    }
                    done += n
                }
            }
        }
        print(String(format: "  %5d Hz %d ch -> 48000: %.1f ns, init %.0f µs", inputRate, channels,
                     elapsed / Double(produced), setup / 1000))
    }
}

func mixing() {
    let samples = 1 << 20
    let floats = noise(count: samples).map { $0 * 1.5 }
    let raw = UnsafeMutableRawPointer.allocate(byteCount: samples * 4, alignment: 64)
    let out = UnsafeMutablePointer<Float>.allocate(capacity: samples * 2)
    defer { raw.deallocate(); out.deallocate() }
    print("mixing kernels, ns per sample (best of 7):")
    func time(_ label: String, _ body: () -> Void) {
        print(String(format: "  %@: %.3f", label, best(7, body) / Double(samples)))
    }
    floats.withUnsafeBufferPointer { f in
        time("Float -> S16LE") { PCMConversion.toS16LE(f.baseAddress!, samples: samples, into: raw) }
        for format in [SampleFormat.s16le, .s16be, .f32le] {
            time("\(format) -> Float") { PCMConversion.toFloat(raw, format: format, samples: samples, into: out) }
        }
        let limiter = SoftLimiter()
        time("SoftLimiter (1/3 of samples over)") {
            out.update(from: f.baseAddress!, count: samples)
            limiter.process(out, count: samples)
        }
        for channels in 1 ... 3 {
            time("ChannelMapping.mix \(channels) ch (per input sample)") {
                ChannelMapping(inputChannels: channels).mix(f.baseAddress!, frames: samples / channels, gain: 0.8, into: out)
            }
        }
    }
}

/// An NV12 frame of pseudo-random bytes in GStreamer's default layout.
func frame(_ width: Int, _ height: Int) -> (VideoFrame, UnsafeMutableRawPointer, Int) {
    let layout = FrameLayout.gstreamerDefault(format: .nv12, width: width, height: height)
    let memory = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
    var state: UInt32 = 19
    for index in 0 ..< layout.byteCount {
        state = state &* 1_664_525 &+ 1_013_904_223
        memory.storeBytes(of: UInt8(truncatingIfNeeded: state >> 24), toByteOffset: index, as: UInt8.self)
    }
    return (VideoFrame(base: memory, layout: layout), memory, layout.byteCount)
}

func pip() {
    let (main, mainMemory, mainBytes) = frame(1920, 1080)
    let (_, copyMemory, _) = frame(1920, 1080)
    let (camera, cameraMemory, _) = frame(1280, 720)
    defer { mainMemory.deallocate(); copyMemory.deallocate(); cameraMemory.deallocate() }
    let renderer = PipRenderer(format: .nv12, source: camera.size, size: PixelSize(width: 480, height: 270))
    let draw = best(9) { renderer.draw(camera, into: main, at: PixelPoint(x: 1400, y: 780)) }
    let copy = best(9) { copyMemory.copyMemory(from: mainMemory, byteCount: mainBytes) }
    print(String(format: "PiP 1280x720 -> 480x270 NV12 into 1080p: %.3f ms; memcpy of the 1080p frame: %.3f ms",
                 draw / 1e6, copy / 1e6))
}

func screen() throws {
    let launch = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
    if FileManager.default.isExecutableFile(atPath: launch.path) {
        // 300 frames minus 1 frame, so pipeline start-up cancels out.
        func run(_ buffers: Int) throws -> Double {
            let process = Process()
            process.executableURL = launch
            process.arguments = ["-q", "videotestsrc", "pattern=smpte", "num-buffers=\(buffers)", "!",
                                 "video/x-raw,format=NV12,width=1170,height=2532", "!", "fakesink"]
            return try nanoseconds {
                try process.run()
                process.waitUntilExit()
            }
        }
        var perFrame: [Double] = []
        for _ in 0 ..< 5 { perFrame.append((try run(300) - run(1)) / 299) }
        print("videotestsrc smpte 1170x2532 (the budget): median \(Int(perFrame.sorted()[2])) ns/frame")
    }
    for (width, height) in [(1170, 2532), (1125, 2436), (2048, 2732), (1920, 1080)] {
        let renderer = try ScreenRenderer(width: width, height: height)
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        let chromaStride = (width + 1) / 2 * 2
        let chroma = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaStride * (height + 1) / 2)
        defer { luma.deallocate(); chroma.deallocate() }
        let frames = 300
        let elapsed = best(5) {
            for frame in 0 ..< frames {
                renderer.render(frameNumber: UInt32(frame), time: UInt64(frame) * 33_333_333,
                                yPlane: luma, yStride: width, uvPlane: chroma, uvStride: chromaStride)
            }
        }
        print("ScreenRenderer \(width)x\(height): \(Int(elapsed) / frames) ns/frame (best of 5)")
    }
}

func programmeAudio() {
    for (content, channels, format) in [(ProgramAudio.Content.music, 2, SampleFormat.s16be), (.speech, 1, .s16le), (.speech, 3, .s16le)] {
        let rate = 48000, buffer = 1024, seconds = 20
        let audio = ProgramAudio(content, rate: rate)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: buffer * channels * 2, alignment: 16)
        defer { memory.deallocate() }
        let perSecond = best(3) {
            for start in stride(from: 0, to: rate * seconds, by: buffer) {
                audio.render(from: Int64(start), count: buffer, channels: channels, format: format, into: memory)
            }
        } / Double(seconds)
        print(String(format: "ProgramAudio %@ %d ch 48 kHz: %.0f ns per audio second = %.3f %% of a core",
                     "\(content)", channels, perSecond, perSecond / 1e7))
    }
}

/// volumemeter's loudness path per 10 ms buffer of 48 kHz stereo S16LE, whole and by part.
func loudness() {
    let frames = 480, buffers = 1000, channels = 2
    let floats = noise(count: frames * buffers * channels)
    let raw = UnsafeMutableRawPointer.allocate(byteCount: floats.count * 2, alignment: 64)
    // Aligned as LoudnessMeter aligns its chunk: misaligned vectors cost the true peak a third more.
    let scratch = UnsafeMutableRawPointer.allocate(byteCount: (64 + frames * channels) * 4, alignment: 64)
        .bindMemory(to: Float.self, capacity: 64 + frames * channels)
    defer { raw.deallocate(); scratch.deallocate() }
    floats.withUnsafeBufferPointer { PCMConversion.toS16LE($0.baseAddress!, samples: floats.count, into: raw) }
    scratch.initialize(repeating: 0, count: 64 + frames * channels)
    let chunk = scratch + 32
    print("loudness, ns per 10 ms buffer of 48 kHz stereo S16LE (best of 7):")
    func time(_ label: String, _ body: (Int) -> Void) {
        print(String(format: "  %@: %.0f", label, best(7) { for b in 0 ..< buffers { body(b) } } / Double(buffers)))
    }
    let meter = LoudnessMeter(format: .s16le, rate: 48000, roles: [.front, .front])
    time("LoudnessMeter.process") { meter.process(raw + $0 * frames * channels * 2, frames: frames) }
    time("  S16LE -> Float") {
        PCMConversion.toFloat(raw + $0 * frames * channels * 2, format: .s16le, samples: frames * channels, into: chunk)
    }
    var lanes = KWeightingLanes(rate: 48000)
    var sink = SIMD2<Double>()
    time("  K-weighting") { _ in sink += MediaKernelsAVX2.LoudnessLoops.kWeightedSquares(chunk, frames: frames, channels: channels, lone: false, &lanes) }
    let interpolator = TruePeakInterpolator(rate: 48000, channels: channels)
    var peaks = [0.0, 0.0]
    time("  true peak") { _ in interpolator.fold(chunk, frames: frames, into: &peaks) }
    if sink.sum() < 0 || peaks[0] < 0 { print("impossible") }
}

let groups: [String: () throws -> Void] = [
    "resampler": resampler, "mixing": mixing, "pip": pip, "screen": screen, "audio": programmeAudio, "loudness": loudness,
]
let order = ["resampler", "mixing", "pip", "screen", "audio", "loudness"]
let asked = CommandLine.arguments.dropFirst()
if let unknown = asked.first(where: { groups[$0] == nil }) {
    FileHandle.standardError.write("unknown group \(unknown); groups: \(order.joined(separator: ", "))\n".data(using: .utf8)!)
    exit(2)
}
for name in order where asked.isEmpty || asked.contains(name) { try groups[name]!() }
