/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "leaks_report.h"
#include "property_values.h"
