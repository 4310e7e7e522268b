/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CCPUFEATURES_H
#define CCPUFEATURES_H

/* Whether the running CPU has AVX2 and FMA, so MediaKernels can pick the kernels compiled
 * for them (MediaKernelsAVX2) over the baseline x86-64 ones. Always 0 elsewhere. */
int rc_cpu_has_avx2_fma(void);

#endif
