// SPDX-License-Identifier: LGPL-2.1-or-later
@testable import MediaKernels
import Testing

/// The rectangle copy under unscaled opaque PiPs and the saved areas, in both compiled copies
/// (baseline x86-64 and AVX2): every row width class (shorter than a vector, single vectors,
/// four- and eight-vector steps, with and without a leftover), strided and back-to-back rows.
@Suite struct PlaneCopyTests {
    static let widths = [1, 7, 31, 32, 33, 100, 127, 128, 129, 200, 255, 256, 257, 480, 1001]

    /// Copies `rows` rows of `width` bytes between buffers whose rows are `sourcePadding` and
    /// `destinationPadding` bytes longer (0: back to back) and checks every byte of the
    /// destination: the copied rows equal the source, padding and the bytes after the last
    /// row keep their sentinel.
    static func check(width: Int, rows: Int, sourcePadding: Int, destinationPadding: Int, loops: KernelLoops) {
        let sourceStride = width + sourcePadding, destinationStride = width + destinationPadding
        let source = (0..<(sourceStride * rows)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251 &+ 1) }
        let sentinel: UInt8 = 0xEE
        var destination = [UInt8](repeating: sentinel, count: destinationStride * rows + 64)
        source.withUnsafeBytes { from in
            destination.withUnsafeMutableBytes { to in
                PlaneCopy.copy(from: from.baseAddress!, stride: sourceStride, to: to.baseAddress!, stride: destinationStride,
                               rowBytes: width, rows: rows, loops: loops)
            }
        }
        var wrong = 0
        for index in destination.indices {
            let row = index / destinationStride, column = index % destinationStride
            let expected = row < rows && column < width ? source[row * sourceStride + column] : sentinel
            if destination[index] != expected { wrong += 1 }
        }
        #expect(wrong == 0, "\(loops) width \(width) rows \(rows) padding \(sourcePadding)/\(destinationPadding)")
    }

    @Test(arguments: widths, [KernelLoops.fastest, .baseline])
    func stridedRowsAreCopiedExactly(width: Int, loops: KernelLoops) {
        Self.check(width: width, rows: 5, sourcePadding: 13, destinationPadding: 3, loops: loops)
    }

    @Test(arguments: widths, [KernelLoops.fastest, .baseline])
    func backToBackRowsAreCopiedExactly(width: Int, loops: KernelLoops) {
        Self.check(width: width, rows: 3, sourcePadding: 0, destinationPadding: 0, loops: loops)
        Self.check(width: width, rows: 1, sourcePadding: 5, destinationPadding: 0, loops: loops)
    }
}
