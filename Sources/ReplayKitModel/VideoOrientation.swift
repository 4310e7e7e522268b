// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// The four orientations ReplayKit attaches to video samples (`RPVideoSampleOrientationKey`,
/// a CGImagePropertyOrientation). The pixels always stay in the panel's native portrait
/// layout; the attachment says how they must be turned to look upright.
///
/// CGImagePropertyOrientation uses the EXIF orientation values and meanings: 1 `up` (stored
/// upright), 3 `down` (stored upside down), 6 `right` (the stored top row is the picture's
/// right edge) and 8 `left` (the stored top row is the picture's left edge). GStreamer's
/// `image-orientation` tag names the clockwise rotation that makes a picture upright, and its
/// own EXIF reader maps 1, 3, 6, 8 to rotate-0, rotate-180, rotate-90, rotate-270
/// (gst-libs/gst/tag/gsttageditingprivate.c), which is what `orientation` gives:
/// a `right` buffer needs a quarter turn clockwise, a `left` one a quarter turn
/// counter-clockwise (rotate-270). `videoflip video-direction=auto` applies exactly that.
///
/// Derived, not observed: holding a phone in landscape with its top edge to the user's left
/// (UIDeviceOrientation.landscapeLeft) makes the panel's top row the picture's left edge,
/// so ReplayKit would report `left` for it and `right` for the other landscape hold.
public enum VideoOrientation: String, Sendable, CaseIterable {
    case up, down, left, right

    /// The CGImagePropertyOrientation (EXIF) value ReplayKit attaches.
    public var cgImagePropertyOrientation: Int {
        switch self {
        case .up: 1
        case .down: 3
        case .right: 6
        case .left: 8
        }
    }

    /// GStreamer's `image-orientation` for it: what the EXIF value means (`Orientation(exif:)`).
    public var orientation: Orientation { Orientation(exif: cgImagePropertyOrientation)! }
}

extension VideoOrientation {
    /// The one GStreamer's `image-orientation` tag `tag` names ("rotate-90": `right`); nil
    /// for the mirrored ones, which ReplayKit never sends.
    public init?(tag: String) {
        guard let match = Self.allCases.first(where: { $0.orientation.rawValue == tag }) else { return nil }
        self = match
    }
}
