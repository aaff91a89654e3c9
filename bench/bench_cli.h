// `trainproof bench`, which only the trainproof executable carries: in-process scenario
// timings (median ms) and golden store throughput, for tools/bench.py.
#pragma once

#include "trainproof/cli/cli.h"

namespace trainproof {

CliCommand bench_command();

}  // namespace trainproof
