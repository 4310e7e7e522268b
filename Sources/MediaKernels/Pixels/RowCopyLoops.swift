// SPDX-License-Identifier: LGPL-2.1-or-later
/// The rectangle copy behind an unscaled opaque PiP and behind saving and restoring what PiPs
/// cover: the only bulk work of pipcompositor's in-place frames. This file is compiled twice,
/// like ResamplerLoops: into MediaKernels for baseline x86-64 and, through a symbolic link,
/// into MediaKernelsAVX2 (32-byte moves); `PlaneCopy` picks one by what the CPU has.
///
/// A PiP row is a few hundred bytes, where a `memcpy` call per row spends more on choosing
/// its strategy than on moving the bytes: these loops choose once per rectangle and move
/// whole vectors with no call per row.
package enum RowCopyLoops {
    private typealias Chunk = SIMD32<UInt8>
    private static let chunk = 32

    /// Copies `rows` rows of `rowBytes` bytes, rows `sourceStride` and `destinationStride`
    /// bytes apart. Source and destination rows must not overlap.
    package static func copyRows(from source: UnsafeRawPointer, stride sourceStride: Int,
                                 to destination: UnsafeMutableRawPointer, stride destinationStride: Int,
                                 rowBytes: Int, rows: Int) {
        guard rowBytes > 0, rows > 0 else { return }
        if sourceStride == rowBytes && destinationStride == rowBytes && rows > 1 {
            copyRows(from: source, stride: 0, to: destination, stride: 0, rowBytes: rowBytes &* rows, rows: 1)
            return
        }
        switch rowBytes {
        case ..<chunk:
            var from = source, to = destination
            for _ in 0..<rows {
                to.copyMemory(from: from, byteCount: rowBytes)
                from += sourceStride
                to += destinationStride
            }
        case ..<(4 * chunk): copyRows(source, sourceStride, destination, destinationStride, rowBytes, rows, vectors: 1)
        case ..<(8 * chunk): copyRows(source, sourceStride, destination, destinationStride, rowBytes, rows, vectors: 4)
        default: copyRows(source, sourceStride, destination, destinationStride, rowBytes, rows, vectors: 8)
        }
    }

    /// At least one row of at least `vectors` vectors: steps of `vectors` vectors, then the
    /// row's last step again over what is already copied, which costs less than a loop over
    /// the leftover.
    @inline(__always)
    private static func copyRows(_ source: UnsafeRawPointer, _ sourceStride: Int, _ destination: UnsafeMutableRawPointer,
                                 _ destinationStride: Int, _ rowBytes: Int, _ rows: Int, vectors: Int) {
        let step = vectors &* chunk, lastStep = rowBytes &- step
        var from = source, to = destination, remaining = rows
        repeat {
            var offset = 0
            repeat {
                move(from, to, offset, vectors: vectors)
                offset &+= step
            } while offset < lastStep
            move(from, to, lastStep, vectors: vectors)
            from += sourceStride
            to += destinationStride
            remaining &-= 1
        } while remaining > 0
    }

    /// Groups of four loads, then their four stores, written out: the compiler may not move a
    /// load above a store to memory it cannot prove distinct.
    @inline(__always)
    private static func move(_ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ offset: Int, vectors: Int) {
        if vectors == 1 {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: Chunk.self), toByteOffset: offset, as: Chunk.self)
            return
        }
        for group in stride(from: 0, to: vectors, by: 4) {
            let at = offset &+ group &* chunk
            let a = from.loadUnaligned(fromByteOffset: at, as: Chunk.self)
            let b = from.loadUnaligned(fromByteOffset: at &+ chunk, as: Chunk.self)
            let c = from.loadUnaligned(fromByteOffset: at &+ 2 &* chunk, as: Chunk.self)
            let d = from.loadUnaligned(fromByteOffset: at &+ 3 &* chunk, as: Chunk.self)
            to.storeBytes(of: a, toByteOffset: at, as: Chunk.self)
            to.storeBytes(of: b, toByteOffset: at &+ chunk, as: Chunk.self)
            to.storeBytes(of: c, toByteOffset: at &+ 2 &* chunk, as: Chunk.self)
            to.storeBytes(of: d, toByteOffset: at &+ 3 &* chunk, as: Chunk.self)
        }
    }
}
