// SPDX-License-Identifier: LGPL-2.1-or-later
import CCPUFeatures
import Glibc

/// Which compiled copy of the hottest loops runs: MediaKernelsAVX2's or the baseline
/// x86-64 one in this module.
enum KernelLoops {
    /// AVX2 + FMA where the CPU has them, else baseline.
    case fastest
    /// Baseline x86-64 whatever the CPU: tests compare the two copies with it.
    case baseline

    var useAVX2: Bool { self == .fastest && Self.cpuHasAVX2 }

    /// Whether the AVX2 + FMA loops can run on this CPU; REPLAYCAST_BASELINE_KERNELS=1 forces
    /// the baseline ones (to compare, or to test them on an AVX2 machine).
    static let cpuHasAVX2: Bool = rc_cpu_has_avx2_fma() != 0 && getenv("REPLAYCAST_BASELINE_KERNELS") == nil
}
