// SPDX-License-Identifier: LGPL-2.1-or-later
import CReplayCast
import MediaKernels

/// A pad's properties as the drawing code uses them (a copy taken once per output frame).
struct PadSettings: Equatable {
    enum Position: Equatable { case custom, topLeft, topRight, bottomLeft, bottomRight }

    var xpos = 0
    var ypos = 0
    var width = -1
    var height = -1
    var alpha = 1.0
    var keepAspectRatio = false
    var position = Position.custom
    var margin = 0
    var scale = 0.0
    var borderWidth = 0
    var borderColor = RGBColor.white
    var cornerRadius = 0

    init() {}

    init(_ raw: RcPipPadSettings) {
        xpos = Int(raw.xpos)
        ypos = Int(raw.ypos)
        width = Int(raw.width)
        height = Int(raw.height)
        alpha = raw.alpha
        keepAspectRatio = raw.sizing_policy == RC_PIP_SIZING_KEEP_ASPECT_RATIO
        switch raw.position {
        case RC_PIP_POSITION_TOP_LEFT: position = .topLeft
        case RC_PIP_POSITION_TOP_RIGHT: position = .topRight
        case RC_PIP_POSITION_BOTTOM_LEFT: position = .bottomLeft
        case RC_PIP_POSITION_BOTTOM_RIGHT: position = .bottomRight
        default: position = .custom
        }
        margin = Int(raw.margin)
        scale = raw.scale
        borderWidth = Int(raw.border_width)
        borderColor = RGBColor(hex: UInt32(raw.border_color) & 0xFF_FFFF)
        cornerRadius = Int(raw.corner_radius)
    }

    var style: PipStyle {
        PipStyle(borderWidth: borderWidth, borderColor: borderColor, cornerRadius: Double(cornerRadius))
    }
}

/// Where pictures go in the output, in output pixels. Pure functions of the settings, so
/// they are tested without pipelines.
enum PipGeometry {
    /// The rectangle a PiP of `source` size is drawn into.
    ///
    /// - Size: `scale` > 0 gives the width as that fraction of the output width and the height
    ///   from the source's aspect ratio; otherwise `width`/`height`, where -1 or 0 mean the
    ///   source's (compositor's rule). With `keepAspectRatio` the picture is fitted, centred,
    ///   into that box (`PixelRect.aspectFit`).
    /// - Position: `custom` puts the box at `xpos`/`ypos`; the corner presets put the picture
    ///   `margin` pixels from the two nearest edges. In 4:2:0 a picture's origin is snapped up
    ///   to even when drawn, so a preset rounds right/bottom origins down to even: the margin
    ///   is then the requested one or 1 pixel more, never less.
    static func pip(_ settings: PadSettings, source: PixelSize, output: PixelSize, format: PixelFormat) -> PixelRect {
        var box = PixelSize(width: settings.width > 0 ? settings.width : source.width,
                            height: settings.height > 0 ? settings.height : source.height)
        if settings.scale > 0 {
            let width = Swift.max(1, Int((settings.scale * Double(output.width)).rounded()))
            box = PixelSize(width: width,
                            height: Swift.max(1, Int((Double(width) * Double(source.height) / Double(source.width)).rounded())))
        }
        var picture = PixelRect(x: 0, y: 0, width: box.width, height: box.height)
        if settings.keepAspectRatio && settings.scale <= 0 {
            picture = PixelRect.aspectFit(source, in: box, alignment: 1)
        }
        let margin = settings.margin
        func farEdge(_ outer: Int, _ size: Int) -> Int {
            let origin = outer - size - margin
            return format.isYUV ? origin & ~1 : origin
        }
        switch settings.position {
        case .custom:
            return PixelRect(x: settings.xpos + picture.x, y: settings.ypos + picture.y, width: picture.width, height: picture.height)
        case .topLeft:
            return PixelRect(x: margin, y: margin, width: picture.width, height: picture.height)
        case .topRight:
            return PixelRect(x: farEdge(output.width, picture.width), y: margin, width: picture.width, height: picture.height)
        case .bottomLeft:
            return PixelRect(x: margin, y: farEdge(output.height, picture.height), width: picture.width, height: picture.height)
        case .bottomRight:
            return PixelRect(x: farEdge(output.width, picture.width), y: farEdge(output.height, picture.height),
                             width: picture.width, height: picture.height)
        }
    }

    /// How many times the output's width (height) a picture may be drawn at: beyond that
    /// the scaling tables and scratch frame would take gigabytes for a sliver of picture.
    static let maximumScale = 4

    /// Whether a picture drawn into `rect` is within `maximumScale` of the output.
    static func drawable(_ rect: PixelRect, output: PixelSize) -> Bool {
        rect.width <= maximumScale * output.width && rect.height <= maximumScale * output.height
    }

    /// The rectangle the main picture (upright size `source`) is drawn into: the box at
    /// `xpos`/`ypos` of `width`×`height`, where -1 or 0 mean the output's size (the main
    /// picture fills the frame), fitted with `keepAspectRatio` (letterbox or pillarbox; in
    /// 4:2:0 sizes and offsets even, so bars end on a chroma boundary).
    static func main(_ settings: PadSettings, source: PixelSize, output: PixelSize, format: PixelFormat) -> PixelRect {
        let box = PixelRect(x: settings.xpos, y: settings.ypos,
                            width: settings.width > 0 ? settings.width : output.width,
                            height: settings.height > 0 ? settings.height : output.height)
        guard settings.keepAspectRatio else { return box }
        let fit = PixelRect.aspectFit(source, in: box.size, alignment: format.alignment)
        return PixelRect(x: box.x + fit.x, y: box.y + fit.y, width: fit.width, height: fit.height)
    }
}
