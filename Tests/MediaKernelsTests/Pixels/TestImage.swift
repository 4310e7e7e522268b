// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// A picture in its own buffer (GStreamer's default layout) for kernel tests.
final class TestImage {
    let layout: FrameLayout
    let buffer: UnsafeMutableRawPointer

    init(_ format: PixelFormat, _ width: Int, _ height: Int, seed: UInt32? = nil) {
        layout = FrameLayout.gstreamerDefault(format: format, width: width, height: height)
        buffer = .allocate(byteCount: layout.byteCount, alignment: 64)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: layout.byteCount)
        if let seed { randomise(seed) }
    }

    deinit { buffer.deallocate() }

    var frame: VideoFrame { VideoFrame(base: buffer, layout: layout) }
    var format: PixelFormat { layout.format }
    var size: PixelSize { PixelSize(width: layout.width, height: layout.height) }

    /// Deterministic pseudo-random bytes everywhere (padding included).
    func randomise(_ seed: UInt32) {
        var state = seed
        for index in 0..<layout.byteCount {
            state = state &* 1_664_525 &+ 1_013_904_223
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: state >> 24), toByteOffset: index, as: UInt8.self)
        }
    }

    /// Byte `channel` of sample (x, y) of `plane`.
    func sample(_ plane: Int, _ x: Int, _ y: Int, _ channel: Int = 0) -> UInt8 {
        frame.plane(plane).pixel(x: x, y: y)[channel]
    }

    func set(_ plane: Int, _ x: Int, _ y: Int, _ channel: Int = 0, _ value: UInt8) {
        frame.plane(plane).pixel(x: x, y: y)[channel] = value
    }

    /// Every byte of the picture (padding included), to compare whole frames.
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: buffer, count: layout.byteCount)) }

    func copy() -> TestImage {
        let twin = TestImage(format, layout.width, layout.height)
        twin.buffer.copyMemory(from: buffer, byteCount: layout.byteCount)
        return twin
    }

    /// Sets every sample of every plane from a function of (plane, x, y, channel).
    func paint(_ value: (Int, Int, Int, Int) -> UInt8) {
        for index in 0..<format.planeCount {
            let plane = frame.plane(index)
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    for c in 0..<plane.bytesPerPixel { plane.pixel(x: x, y: y)[c] = value(index, x, y, c) }
                }
            }
        }
    }
}
