// SPDX-License-Identifier: LGPL-2.1-or-later
/// Keeps copies of a few rectangles of a frame, to put them back later: what lies under the
/// PiPs when they are drawn into the main picture in place, so the same main picture can be
/// shown again (repeated frames) without the old PiPs and without copying the whole frame.
/// Rectangles are snapped and clipped as `Placement` says, like every drawing operation, so
/// a saved rectangle covers exactly the samples a PiP drawn at it can touch.
///
/// Storage grows when a larger area is saved and is kept: once the PiP geometry is steady,
/// `save` and `restore` allocate nothing. Not for concurrent use.
public final class RegionStore {
    private struct Entry {
        var placement: Placement
        var offset: Int
    }

    // Changed on every in-place frame; the store is not for concurrent use.
    @exclusivity(unchecked) private var entries: [Entry] = []
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    private var used = 0

    public init() {
        entries.reserveCapacity(8)
    }

    deinit { storage?.deallocate() }

    public var isEmpty: Bool { entries.isEmpty }

    /// The rectangles saved so far (snapped and clipped), in saving order.
    public var rectangles: [PixelRect] { entries.map(\.placement.visible) }

    /// Forgets what was saved (storage is kept).
    public func removeAll() {
        entries.removeAll(keepingCapacity: true)
        used = 0
    }

    /// Adds a copy of `rect` of `frame`; nothing for a rectangle outside the frame.
    public func save(_ rect: PixelRect, of frame: VideoFrame) {
        let placement = Placement(format: frame.format, frame: frame.size, origin: rect.origin, content: rect.size)
        guard !placement.isEmpty else { return }
        var bytes = 0
        for index in 0..<frame.format.planeCount {
            let span = placement.span(plane: index)
            bytes += span.width * span.height * frame.format.bytesPerPixel(plane: index)
        }
        reserve(used + bytes)
        entries.append(Entry(placement: placement, offset: used))
        var cursor = storage! + used
        for index in 0..<frame.format.planeCount {
            let span = placement.span(plane: index), plane = frame.plane(index)
            let rowBytes = span.width * plane.bytesPerPixel
            PlaneCopy.copy(from: plane.pixel(x: span.destinationX, y: span.destinationY), stride: plane.stride,
                           to: cursor, stride: rowBytes, rowBytes: rowBytes, rows: span.height)
            cursor += rowBytes * span.height
        }
        used += bytes
    }

    /// Writes every saved rectangle back into `frame` (same format and size as when saved).
    /// Overlapping rectangles are all copies of the frame as it was before anything was drawn
    /// into it, so the order does not matter.
    public func restore(into frame: VideoFrame) {
        for entry in entries {
            precondition(entry.placement.format == frame.format, "restoring into another format")
            var cursor = UnsafeRawPointer(storage! + entry.offset)
            for index in 0..<frame.format.planeCount {
                let span = entry.placement.span(plane: index), plane = frame.plane(index)
                precondition(span.destinationX + span.width <= plane.width && span.destinationY + span.height <= plane.height,
                             "restoring into a smaller frame")
                let rowBytes = span.width * plane.bytesPerPixel
                PlaneCopy.copy(from: cursor, stride: rowBytes, to: plane.pixel(x: span.destinationX, y: span.destinationY),
                               stride: plane.stride, rowBytes: rowBytes, rows: span.height)
                cursor += rowBytes * span.height
            }
        }
    }

    private func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        let grown = Swift.max(bytes, capacity * 2)
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 64)
        if let storage {
            fresh.copyMemory(from: storage, byteCount: used)
            storage.deallocate()
        }
        storage = fresh
        capacity = grown
    }
}
