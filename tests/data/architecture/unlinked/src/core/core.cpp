#include "trainproof/core/trace.h"
