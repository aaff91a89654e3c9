// The negative control of the include check: an include of a layer runner does not link.
#include "trainproof/core/trace.h"
#include "trainproof/report/report.h"
