import Foundation
import MediaKernels
import Testing

/// Prints the cost of the per-frame work next to a memcpy of the main frame. Never asserts
/// on time (debug builds and shared machines vary); release numbers come from a release
/// build of the same calls.
@Suite struct TimingTests {
    static func median(_ runs: Int, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[runs / 2]
    }

    @Test func pipIntoA1080pFrame() {
        let main = TestImage(.nv12, 1920, 1080), copy = TestImage(.nv12, 1920, 1080)
        let camera = TestImage(.nv12, 1280, 720, seed: 19)
        let renderer = PipRenderer(format: .nv12, source: camera.size, size: PixelSize(width: 480, height: 270))
        let pip = Self.median(9) { renderer.draw(camera.frame, into: main.frame, at: PixelPoint(x: 1400, y: 780)) }
        let memcpy = Self.median(9) { copy.buffer.copyMemory(from: main.buffer, byteCount: main.layout.byteCount) }
        print("PiP 1280x720 -> 480x270 NV12 into 1080p: \(pip) ms; memcpy of a 1080p NV12 frame: \(memcpy) ms")
    }
}
