/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "CCPUFeatures.h"

int rc_cpu_has_avx2_fma(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return 0;
#endif
}
