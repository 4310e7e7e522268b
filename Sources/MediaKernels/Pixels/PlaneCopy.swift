// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernelsAVX2

/// Copies of sample rectangles between planes through `RowCopyLoops`, in the compiled copy
/// the CPU runs best.
enum PlaneCopy {
    /// Copies `rows` rows of `rowBytes` bytes; source and destination must not overlap.
    @inline(__always)
    static func copy(from source: UnsafeRawPointer, stride sourceStride: Int, to destination: UnsafeMutableRawPointer,
                     stride destinationStride: Int, rowBytes: Int, rows: Int, loops: KernelLoops = .fastest) {
        let copyRows = loops.useAVX2 ? MediaKernelsAVX2.RowCopyLoops.copyRows : RowCopyLoops.copyRows
        copyRows(source, sourceStride, destination, destinationStride, rowBytes, rows)
    }
}
