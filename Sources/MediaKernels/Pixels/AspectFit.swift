// SPDX-License-Identifier: LGPL-2.1-or-later
extension PixelRect {
    /// The largest rectangle with the aspect ratio of `content` that fits `bounds`, centred
    /// (letterbox or pillarbox). Sizes round to the nearest multiple of `alignment` (2 for
    /// 4:2:0, so bars and picture meet on a chroma boundary), never below `alignment`;
    /// offsets are rounded down to a multiple of `alignment`, so an odd leftover puts the
    /// extra pixel on the right/bottom bar.
    public static func aspectFit(_ content: PixelSize, in bounds: PixelSize, alignment: Int = 1) -> PixelRect {
        precondition(!content.isEmpty && !bounds.isEmpty && alignment > 0, "empty fit")
        func aligned(_ value: Double, limit: Int) -> Int {
            let steps = (value / Double(alignment)).rounded(.toNearestOrAwayFromZero)
            return Swift.min(Swift.max(Int(steps) * alignment, alignment), limit)
        }
        // Compare cross products to pick the limiting axis without rounding.
        let limitedByWidth = content.width * bounds.height >= content.height * bounds.width
        let width: Int, height: Int
        if limitedByWidth {
            width = bounds.width
            height = aligned(Double(bounds.width) * Double(content.height) / Double(content.width), limit: bounds.height)
        } else {
            height = bounds.height
            width = aligned(Double(bounds.height) * Double(content.width) / Double(content.height), limit: bounds.width)
        }
        let x = (bounds.width - width) / 2 / alignment * alignment
        let y = (bounds.height - height) / 2 / alignment * alignment
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}
