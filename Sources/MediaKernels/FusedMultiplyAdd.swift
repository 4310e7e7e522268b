// SPDX-License-Identifier: LGPL-2.1-or-later
/// `sum += a · b` for the loops compiled twice (ResamplerLoops, LoudnessLoops). For baseline
/// x86-64 it is a separate multiply and add, because there a fused multiply-add is not an
/// instruction and `addProduct` would be emulated lane by lane; in MediaKernelsAVX2
/// (KERNELS_FMA) it is one fused multiply-add. One concrete overload per vector type, as
/// elsewhere in the kernels (SampleLoading says why).
@inline(__always)
func accumulate(_ sum: inout SIMD8<Float>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) {
    #if KERNELS_FMA
    sum.addProduct(a, b)
    #else
    sum += a * b
    #endif
}

@inline(__always)
func accumulate(_ sum: inout SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) {
    #if KERNELS_FMA
    sum.addProduct(a, b)
    #else
    sum += a * b
    #endif
}
