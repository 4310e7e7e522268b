// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit
import ReplayCastSupport

/// Where a picture-in-picture goes in the output.
public enum PicturePosition: Sendable, Equatable {
    case topLeft, topRight, bottomLeft, bottomRight
    /// Its top-left corner at these output pixels.
    case at(x: Int, y: Int)
}

/// A change to one pipcompositor picture; nil fields stay as they are.
public struct PictureUpdate: Sendable, Equatable {
    public var position: PicturePosition?
    /// Distance in pixels from the output's edges for the corner positions.
    public var margin: Int?
    /// Width as a fraction of the output's width, aspect ratio kept (0 < scale ≤ 1).
    public var scale: Double?
    /// Width and height in output pixels (instead of `scale`).
    public var size: (width: Int, height: Int)?
    public var visible: Bool?

    public init(position: PicturePosition? = nil, margin: Int? = nil, scale: Double? = nil,
                size: (width: Int, height: Int)? = nil, visible: Bool? = nil) {
        self.position = position
        self.margin = margin
        self.scale = scale
        self.size = size
        self.visible = visible
    }

    public static func == (a: PictureUpdate, b: PictureUpdate) -> Bool {
        a.position == b.position && a.margin == b.margin && a.scale == b.scale && a.visible == b.visible
            && a.size?.width == b.size?.width && a.size?.height == b.size?.height
    }
}

extension Broadcast {
    /// broadcastPaused: every stream of the emulated device stops until `resume()`.
    public func pause() throws(BroadcastError) { try emit("pause") }

    /// broadcastResumed.
    public func resume() throws(BroadcastError) { try emit("resume") }

    /// broadcastFinished: the device's streams end, the pipeline reaches end of stream and the
    /// broadcast ends (`waitUntilEnded()`).
    public func finish() throws(BroadcastError) { try emit("finish") }

    /// A new programme: every volumemeter's integrated loudness, loudness range and maxima
    /// start again (its `reset` action signal).
    public func resetLoudness() throws(BroadcastError) {
        guard isRunning else { throw .notRunning("reset the loudness") }
        let meters = BinElements.made(by: "volumemeter", in: pipeline)
        guard !meters.isEmpty else { throw .notInPipeline("volumemeter") }
        for meter in meters { rc_emit_action(meter, "reset") }
    }

    /// Any change a schedule can hold, now: `.orientation(.left)`, `.micFormat(rate: 24000,
    /// channels: nil)`, `.callStart`, `.mic(.silence)`, …
    public func apply(_ action: BroadcastAction) throws(BroadcastError) {
        let source = try replayKitSource(for: "apply \(action)")
        guard rc_emit_string_action(source, "event", "\(action)") != 0 else {
            throw .refused("replaykitsrc refused \"\(action)\" (GST_DEBUG=replaykitsrc:2 says why)")
        }
    }

    /// Moves, resizes, shows or hides the picture on pipcompositor's pad `sink_<pad>`
    /// (`sink_1`: the first picture over the main one). Allowed before `start()` too.
    public func updatePicture(_ update: PictureUpdate, pad: Int = 1) throws(BroadcastError) {
        if case .ended = core.phase { throw .notRunning("update the picture") }
        guard let compositor = BinElements.made(by: "pipcompositor", in: pipeline).first else {
            throw .notInPipeline("pipcompositor")
        }
        guard let sinkPad = gst_element_get_static_pad(compositor, "sink_\(pad)") else {
            throw .notInPipeline("pad sink_\(pad) on \(String(cString: rc_object_name(compositor)))")
        }
        defer { gst_object_unref(sinkPad) }
        for (name, value) in try Self.properties(update) {
            gst_util_set_object_arg(rc_gobject(sinkPad), name, value)
        }
    }

    /// pipcompositor's pad properties for `update`, checked against their ranges first, so a
    /// bad value is an error here rather than a GLib warning.
    static func properties(_ update: PictureUpdate) throws(BroadcastError) -> [(String, String)] {
        var properties: [(String, String)] = []
        switch update.position {
        case .at(let x, let y)?:
            properties += [("position", "custom"), ("xpos", "\(x)"), ("ypos", "\(y)")]
        case .topLeft?: properties.append(("position", "top-left"))
        case .topRight?: properties.append(("position", "top-right"))
        case .bottomLeft?: properties.append(("position", "bottom-left"))
        case .bottomRight?: properties.append(("position", "bottom-right"))
        case nil:
            break
        }
        if let margin = update.margin {
            guard (0 ... 32767).contains(margin) else { throw .refused("margin \(margin) is outside 0-32767") }
            properties.append(("margin", "\(margin)"))
        }
        if let scale = update.scale {
            guard scale > 0, scale <= 1 else { throw .refused("scale \(scale) is outside (0, 1]") }
            properties.append(("scale", "\(scale)"))
        }
        if let size = update.size {
            guard size.width > 0, size.height > 0 else { throw .refused("size \(size.width)x\(size.height) is not positive") }
            properties += [("scale", "0"), ("width", "\(size.width)"), ("height", "\(size.height)")]
        }
        if let visible = update.visible { properties.append(("alpha", visible ? "1" : "0")) }
        return properties
    }

    private func emit(_ signal: String) throws(BroadcastError) {
        rc_emit_action(try replayKitSource(for: signal), signal)
    }

    private func replayKitSource(for request: String) throws(BroadcastError) -> UnsafeMutablePointer<GstElement> {
        guard isRunning else { throw .notRunning(request) }
        guard let source = BinElements.made(by: "replaykitsrc", in: pipeline).first else {
            throw .notInPipeline("replaykitsrc")
        }
        return source
    }
}
