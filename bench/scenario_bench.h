// Measurements behind `trainproof bench` (tools/bench.py drives them side by side with the
// Python reference): in-process timing of a scenario, and golden read+compare throughput.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace trainproof {

struct Timing {
  std::vector<double> ms;  // one per repetition
  double median() const;
};

// Runs the scenario `warmup` times untimed, then `repeat` times timed (wall clock).
Timing time_scenario(const std::string& name, int warmup, int repeat);

struct StoreThroughput {
  uint64_t elements = 0, bytes = 0;
  double write_s = 0, read_s = 0, compare_s = 0;
};
// Writes a golden of `elements` float32 values across 10 series to a temp folder, then
// reads it back and compares it with the in-memory trace (exact), timing each part.
StoreThroughput measure_store(uint64_t elements);

}  // namespace trainproof
