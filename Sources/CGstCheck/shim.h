/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGSTCHECK_SHIM_H
#define CGSTCHECK_SHIM_H
#include <gst/check/gstharness.h>
#endif
