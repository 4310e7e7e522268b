// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

extension VideoFrame {
    /// Whether every sample of `other` (same format and size) equals this frame's: the
    /// picture only, never the padding past a row's end, which decoders leave unwritten.
    public func hasSamePixels(as other: VideoFrame) -> Bool {
        guard other.format == format, other.size == size else { return false }
        for index in 0..<format.planeCount {
            let mine = plane(index), theirs = other.plane(index)
            for row in 0..<mine.height where memcmp(mine.row(row), theirs.row(row), mine.rowBytes) != 0 { return false }
        }
        return true
    }
}
