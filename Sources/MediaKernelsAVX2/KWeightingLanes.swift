// SPDX-License-Identifier: LGPL-2.1-or-later
/// The K-weighting pre-filter (a high shelf, then the RLB high-pass, each in transposed
/// direct form II) for two channels at once, one per lane: its coefficients and the state of
/// both sections, read and updated by `LoudnessLoops` (compiled for baseline x86-64 in
/// MediaKernels and for AVX2 + FMA here).
///
/// Each section's state update is written in terms of its previous state and its input
/// only (s1' = −a1·s1 + s2 + (b1 − a1·b0)·x, s2' = −a2·s1 + (b2 − a2·b0)·x), not through
/// the section's output: the chain from one frame to the next is then one multiply-add
/// instead of two, which is what bounds the filter's speed. The high-pass numerator is
/// 1, −2, 1 at every rate.
package struct KWeightingLanes {
    package let b0, c1, c2, minusA1, minusA2: SIMD2<Double>
    package let highC1, highC2, highMinusA1, highMinusA2: SIMD2<Double>
    package var s1 = SIMD2<Double>(), s2 = SIMD2<Double>(), h1 = SIMD2<Double>(), h2 = SIMD2<Double>()

    package init(shelf: (b0: Double, b1: Double, b2: Double, a1: Double, a2: Double), highPass: (a1: Double, a2: Double)) {
        b0 = SIMD2(repeating: shelf.b0)
        c1 = SIMD2(repeating: shelf.b1 - shelf.a1 * shelf.b0)
        c2 = SIMD2(repeating: shelf.b2 - shelf.a2 * shelf.b0)
        minusA1 = SIMD2(repeating: -shelf.a1)
        minusA2 = SIMD2(repeating: -shelf.a2)
        highC1 = SIMD2(repeating: -2 - highPass.a1)
        highC2 = SIMD2(repeating: 1 - highPass.a2)
        highMinusA1 = SIMD2(repeating: -highPass.a1)
        highMinusA2 = SIMD2(repeating: -highPass.a2)
    }

    package mutating func reset() {
        s1 = .zero
        s2 = .zero
        h1 = .zero
        h2 = .zero
    }
}
