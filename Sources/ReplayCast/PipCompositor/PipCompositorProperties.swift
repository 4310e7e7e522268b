// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// compositor's names, blurbs and defaults where the meaning is compositor's. The enum types
/// have our own names: compositor registers its own, and both plugins may live in one process.
extension PipCompositor {
    /// compositor's GstCompositorBackground values and texts, plus `color`.
    static let background = EnumType("GstPipCompositorBackground", [
        .init(RC_PIP_BACKGROUND_CHECKER, "Checker pattern", "checker"),
        .init(RC_PIP_BACKGROUND_BLACK, "Black", "black"),
        .init(RC_PIP_BACKGROUND_WHITE, "White", "white"),
        .init(RC_PIP_BACKGROUND_TRANSPARENT, "Transparent Background to enable further compositing", "transparent"),
        .init(RC_PIP_BACKGROUND_COLOR, "The colour of the background-color property", "color"),
    ])

    static let sizingPolicy = EnumType("GstPipCompositorSizingPolicy", [
        .init(RC_PIP_SIZING_NONE,
              "None: Image is scaled to fill configured destination rectangle without padding or keeping the aspect ratio",
              "none"),
        .init(RC_PIP_SIZING_KEEP_ASPECT_RATIO,
              "Keep Aspect Ratio: Image is scaled to fit destination rectangle specified by GstCompositorPad:{xpos, "
              + "ypos, width, height} with preserved aspect ratio. Resulting image will be centered in the destination "
              + "rectangle with padding if necessary", "keep-aspect-ratio"),
    ])

    static let position = EnumType("GstPipCompositorPosition", [
        .init(RC_PIP_POSITION_CUSTOM, "At xpos, ypos", "custom"),
        .init(RC_PIP_POSITION_TOP_LEFT, "Top left corner, margin pixels from the edges", "top-left"),
        .init(RC_PIP_POSITION_TOP_RIGHT, "Top right corner, margin pixels from the edges", "top-right"),
        .init(RC_PIP_POSITION_BOTTOM_LEFT, "Bottom left corner, margin pixels from the edges", "bottom-left"),
        .init(RC_PIP_POSITION_BOTTOM_RIGHT, "Bottom right corner, margin pixels from the edges", "bottom-right"),
    ])

    static let properties = PropertyTable(\RcPipCompositor.settings, [
        .enumeration(\.background, "background", "Background",
                     "Background type (seen where the main picture does not cover the output)", background,
                     default: RC_PIP_BACKGROUND_BLACK, .mutablePlaying),
        .uint(\.background_color, "background-color", "Background color",
              "Background color for background=color (big-endian ARGB)", 0...UInt32.max, default: 0xFF00_0000,
              .mutablePlaying),
        // Our own timing rules; GstAggregator's start-time-selection and each pad's
        // repeat-after-eos keep their meaning beside them (docs/pipcompositor.md).
        .boolean(\.start_with_main, "start-with-main", "Start with main",
                 "Live: the output's first frame is the main input's first (waited for up to 1 s), and its frames step "
                 + "from that frame's time; start-time-selection is then not used", default: false, .mutableReady),
        .boolean(\.end_with_main, "end-with-main", "End with main",
                 "The output ends with the main input, however long PiPs go on, unless the main pad has "
                 + "repeat-after-eos=true", default: true, .mutablePlaying),
        // The aggregator's own setting, shown as compositor shows it.
        .boolean("ignore-inactive-pads", "Ignore inactive pads", "Avoid timing out waiting for inactive pads",
                 default: true, [],
                 get: { gst_aggregator_get_ignore_inactive_pads(rc_aggregator($0)) != 0 },
                 set: { gst_aggregator_set_ignore_inactive_pads(rc_aggregator($0), $1 ? 1 : 0) }),
    ])

    /// width and height start at -1 instead of G_MININT: -1 (the default) and 0 keep
    /// compositor's meaning, other negative sizes are refused. Pixel counts stop at
    /// `maxPixels`: far beyond any frame, small enough that sums of them never overflow.
    static let padProperties = PropertyTable(\RcPipCompositorPad.settings, [
        .int(\.xpos, "xpos", "X Position", "X Position of the picture", Int32.min...Int32.max, default: 0, .controllable),
        .int(\.ypos, "ypos", "Y Position", "Y Position of the picture", Int32.min...Int32.max, default: 0, .controllable),
        .int(\.width, "width", "Width", "Width of the picture (-1 or 0: the input's width; on the main pad: the output's)",
             -1...Int32.max, default: -1, .controllable),
        .int(\.height, "height", "Height",
             "Height of the picture (-1 or 0: the input's height; on the main pad: the output's)", -1...Int32.max,
             default: -1, .controllable),
        .double(\.alpha, "alpha", "Alpha", "Alpha of the picture", 0...1, default: 1, .controllable),
        .enumeration(\.sizing_policy, "sizing-policy", "Sizing policy", "Sizing policy to use for image scaling",
                     sizingPolicy, default: RC_PIP_SIZING_NONE, .controllable),
        .enumeration(\.position, "position", "Position",
                     "Where the picture goes: at xpos/ypos (custom) or in a corner of the output, margin pixels from its edges",
                     position, default: RC_PIP_POSITION_CUSTOM, .controllable),
        .uint(\.margin, "margin", "Margin", "Distance in pixels from the output's edges for the corner positions",
              0...maxPixels, default: 0, .controllable),
        .double(\.scale, "scale", "Scale",
                "Width of the picture as a fraction of the output's width, aspect ratio kept (0 = use width and height)",
                0...1, default: 0, .controllable),
        .uint(\.border_width, "border-width", "Border width", "Width in pixels of a border drawn inside the picture's rectangle",
              0...maxPixels, default: 0, .controllable),
        .uint(\.border_color, "border-color", "Border color", "Border color to use (big-endian ARGB; alpha is the pad's)",
              0...UInt32.max, default: 0xFFFF_FFFF, .controllable),
        .uint(\.corner_radius, "corner-radius", "Corner radius",
              "Radius in pixels of the picture's rounded corners (0 = square)", 0...maxPixels, default: 0, .controllable),
    ])

    static let maxPixels: UInt32 = 32767
}

@_cdecl("rc_pipcompositor_properties")
func pipCompositorProperties() -> UnsafeRawPointer { PipCompositor.properties.opaque }

@_cdecl("rc_pipcompositor_pad_properties")
func pipCompositorPadProperties() -> UnsafeRawPointer { PipCompositor.padProperties.opaque }
