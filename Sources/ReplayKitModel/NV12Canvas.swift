// SPDX-License-Identifier: LGPL-2.1-or-later
/// Caller-owned NV12 planes seen through a band of rows, with the few fills the screen scene
/// is made of. Drawing happens one band of rows at a time so the rows being painted stay in
/// cache while several shapes overlap them.
///
/// Chroma is sited at the even luma rows and columns (NV12's top-left siting): a chroma
/// sample takes the colour of the shape covering its top-left luma pixel. Drawing luma row y
/// also writes chroma row y/2 when y is even, so bands must start on even rows.
struct NV12Canvas {
    let luma: UnsafeMutablePointer<UInt8>
    let lumaStride: Int
    let chroma: UnsafeMutablePointer<UInt16>
    /// In chroma pairs (UInt16 units).
    let chromaStride: Int
    let width: Int
    /// Rows `top ..< bottom` may be drawn; everything else is clipped away.
    var top: Int
    var bottom: Int

    func clipped(top newTop: Int, bottom newBottom: Int) -> NV12Canvas {
        var copy = self
        copy.top = max(top, newTop)
        copy.bottom = min(bottom, newBottom)
        return copy
    }

    /// One horizontal span of row y; columns are clipped, the row must already be in range.
    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ color: NV12Color) {
        let left = max(x0, 0), right = min(x1, width)
        guard left < right else { return }
        (luma + (y &* lumaStride &+ left)).update(repeating: color.y, count: right &- left)
        if y & 1 == 0 {
            let first = (left &+ 1) >> 1, end = (right &+ 1) >> 1
            if first < end {
                (chroma + ((y >> 1) &* chromaStride &+ first)).update(repeating: color.chromaPair, count: end &- first)
            }
        }
    }

    func fillRect(x0: Int, y0: Int, x1: Int, y1: Int, _ color: NV12Color) {
        let first = max(y0, top), end = min(y1, bottom)
        guard first < end else { return }
        for y in first ..< end { span(y, x0, x1, color) }
    }

    /// A rectangle whose corners are rounded by `corners` (a circle when it is as tall and
    /// wide as two radii).
    func fillRounded(x0: Int, y0: Int, x1: Int, y1: Int, _ corners: CornerInsets, _ color: NV12Color) {
        let first = max(y0, top), end = min(y1, bottom)
        guard first < end else { return }
        corners.insets.withUnsafeBufferPointer { insets in
            for y in first ..< end {
                let edgeDistance = min(y - y0, y1 - 1 - y)
                let inset = edgeDistance < insets.count ? insets[edgeDistance] : 0
                span(y, x0 + inset, x1 - inset, color)
            }
        }
    }

    /// Text in the 5x7 glyph font, each glyph pixel drawn as a `scale`-sized square.
    func text(_ run: GlyphRun, x: Int, y: Int, scale: Int, _ color: NV12Color) {
        guard y < bottom, y + GlyphFont.rows * scale > top else { return }
        let advance = GlyphFont.advance * scale
        for row in 0 ..< GlyphFont.rows {
            let rowTop = max(y + row * scale, top), rowEnd = min(y + (row + 1) * scale, bottom)
            guard rowTop < rowEnd else { continue }
            for index in 0 ..< run.count {
                let bits = GlyphFont.bits(run[index], row: row)
                let glyphLeft = x + index * advance
                var column = 0
                while column < GlyphFont.columns {
                    guard GlyphFont.isSet(bits, column: column) else { column += 1; continue }
                    // Adjacent set pixels become one span.
                    var end = column + 1
                    while end < GlyphFont.columns && GlyphFont.isSet(bits, column: end) { end += 1 }
                    for y in rowTop ..< rowEnd { span(y, glyphLeft + column * scale, glyphLeft + end * scale, color) }
                    column = end
                }
            }
        }
    }
}

/// How far each of the first `radius` rows of a rounded shape is indented from its corners.
struct CornerInsets: Sendable {
    let insets: [Int]

    init(radius: Int) {
        let r = Double(radius)
        insets = (0 ..< max(0, radius)).map { row in
            let dy = r - Double(row) - 0.5
            return Int((r - (r * r - dy * dy).squareRoot()).rounded())
        }
    }
}
