// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

/// A pad probe that calls a Swift closure; the pad keeps the closure (and what it captures)
/// alive until the probe goes with it.
package enum PadProbe {
    package typealias Handler = @Sendable (UnsafeMutablePointer<GstPadProbeInfo>, UnsafeMutableRawPointer) -> Void

    private final class Box: Sendable {
        let handler: Handler

        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    /// Calls `handler` with the probe's info and its data (buffer or event) for every item `mask` selects.
    package static func add(to pad: UnsafeMutablePointer<GstPad>, _ mask: GstPadProbeType, _ handler: @escaping Handler) {
        gst_pad_add_probe(pad, mask, { _, info, box in
            guard let info, let box, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
            Unmanaged<Box>.fromOpaque(box).takeUnretainedValue().handler(info, data)
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(Box(handler)).toOpaque(), { box in
            guard let box else { return }
            Unmanaged<Box>.fromOpaque(box).release()
        })
    }
}
