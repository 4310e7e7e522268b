#include "leaks_report.h"
#include "property_values.h"
