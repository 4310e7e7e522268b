// SPDX-License-Identifier: LGPL-2.1-or-later
/// How much of each sample position of a PiP is picture, border or main frame, for a
/// rounded rectangle with an inner border. Built once per (size, style); per frame only
/// read.
///
/// Geometry, in luma pixels of the PiP (w × h): the outer shape is the rectangle with
/// corners of radius `cornerRadius`; the border is the band between it and the same shape
/// inset by `borderWidth` (inner radius `max(r − b, 0)`), so the border stays inside the
/// PiP rectangle and the footprint is exactly xpos/ypos/width/height. Coverage of a pixel
/// is measured at its centre from the signed distance d to a shape: clamp(0.5 − d, 0, 1)
/// when antialiased (straight edges on pixel boundaries stay crisp), d ≤ 0 otherwise.
///
/// 4:2:0 chroma: a chroma sample's coverage is the mean of the coverages of the luma
/// pixels of its 2×2 block that lie inside the PiP. So a chroma sample half on a 1-pixel
/// border mixes border and picture chroma 50/50, and the last chroma column of an odd-width
/// PiP counts only the PiP's own luma column (it is fully picture, as in compositor).
struct CoverageMask {
    enum RunKind: UInt8 {
        /// Outer and inner coverage 0: main picture stays.
        case outside
        /// Fully picture.
        case picture
        /// Fully border.
        case border
        /// Anything else: blended per sample.
        case mixed
    }

    struct Run {
        var start: Int
        var count: Int
        var kind: RunKind
    }

    struct Plane {
        let width: Int
        let height: Int
        /// Coverage of the outer shape and of the inner (picture) shape, 0…255, row-major.
        let outer: [UInt8]
        let inner: [UInt8]
        /// Runs of each row: `runs[rowStarts[y]..<rowStarts[y + 1]]`.
        let runs: [Run]
        let rowStarts: [Int]
    }

    let luma: Plane
    let chroma: Plane?

    init(size: PixelSize, borderWidth: Int, cornerRadius: Double, antialiased: Bool, subsampledChroma: Bool) {
        let width = size.width, height = size.height
        let radius = Swift.max(0, Swift.min(cornerRadius, Double(Swift.min(width, height)) / 2))
        let border = Swift.max(0, borderWidth)
        func coverage(_ x: Int, _ y: Int, inset: Double, radius: Double) -> UInt8 {
            let halfWidth = Double(width) / 2 - inset, halfHeight = Double(height) / 2 - inset
            guard halfWidth > 0, halfHeight > 0 else { return 0 }
            let r = Swift.min(radius, halfWidth, halfHeight)
            let qx = abs(Double(x) + 0.5 - Double(width) / 2) - (halfWidth - r)
            let qy = abs(Double(y) + 0.5 - Double(height) / 2) - (halfHeight - r)
            let outside = (Swift.max(qx, 0) * Swift.max(qx, 0) + Swift.max(qy, 0) * Swift.max(qy, 0)).squareRoot()
            let distance = outside + Swift.min(Swift.max(qx, qy), 0) - r
            if !antialiased { return distance <= 0 ? 255 : 0 }
            return UInt8((Swift.min(Swift.max(0.5 - distance, 0), 1) * 255).rounded())
        }
        var outer = [UInt8](repeating: 0, count: width * height), inner = outer
        for y in 0..<height {
            for x in 0..<width {
                outer[y * width + x] = coverage(x, y, inset: 0, radius: radius)
                inner[y * width + x] = border == 0 ? outer[y * width + x]
                    : coverage(x, y, inset: Double(border), radius: Swift.max(radius - Double(border), 0))
            }
        }
        luma = Self.plane(width: width, height: height, outer: outer, inner: inner)
        guard subsampledChroma else {
            chroma = nil
            return
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        var chromaOuter = [UInt8](repeating: 0, count: chromaWidth * chromaHeight), chromaInner = chromaOuter
        for cy in 0..<chromaHeight {
            for cx in 0..<chromaWidth {
                var outerSum = 0, innerSum = 0, count = 0
                for y in (2 * cy)..<Swift.min(2 * cy + 2, height) {
                    for x in (2 * cx)..<Swift.min(2 * cx + 2, width) {
                        outerSum += Int(outer[y * width + x])
                        innerSum += Int(inner[y * width + x])
                        count += 1
                    }
                }
                chromaOuter[cy * chromaWidth + cx] = UInt8((outerSum + count / 2) / count)
                chromaInner[cy * chromaWidth + cx] = UInt8((innerSum + count / 2) / count)
            }
        }
        chroma = Self.plane(width: chromaWidth, height: chromaHeight, outer: chromaOuter, inner: chromaInner)
    }

    private static func plane(width: Int, height: Int, outer: [UInt8], inner: [UInt8]) -> Plane {
        var runs: [Run] = [], rowStarts: [Int] = [0]
        for y in 0..<height {
            var x = 0
            while x < width {
                let kind = Self.kind(outer: outer[y * width + x], inner: inner[y * width + x])
                var end = x + 1
                while end < width && Self.kind(outer: outer[y * width + end], inner: inner[y * width + end]) == kind { end += 1 }
                runs.append(Run(start: x, count: end - x, kind: kind))
                x = end
            }
            rowStarts.append(runs.count)
        }
        return Plane(width: width, height: height, outer: outer, inner: inner, runs: runs, rowStarts: rowStarts)
    }

    private static func kind(outer: UInt8, inner: UInt8) -> RunKind {
        switch (outer, inner) {
        case (0, 0): .outside
        case (255, 255): .picture
        case (255, 0): .border
        default: .mixed
        }
    }

    func plane(subsampled: Bool) -> Plane { subsampled ? chroma ?? luma : luma }
}
