// A Trace is what a scenario produces: named 1-D series, each with the dtype it was
// produced in and the tolerance it declares, plus invariants and the printed output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/dtype.h"
#include "harness/tolerance.h"

namespace trainproof {

struct Series {
  std::string name;
  DType produced = DType::kFloat32;
  std::vector<double> values;  // float dtypes (each value exact in its dtype)
  std::vector<int64_t> ints;   // integer dtypes
  Tolerance tolerance;         // golden made in the same environment
  Tolerance cross;             // golden made on another CPU ISA / LibTorch / GPU
  std::string unit;

  size_t size() const { return is_integer(produced) ? ints.size() : values.size(); }
  double at(size_t i) const { return is_integer(produced) ? static_cast<double>(ints[i]) : values[i]; }
};

// A law that must hold on any hardware (resumed == uninterrupted, fp16(1e-8) == 0, ...).
struct Invariant {
  std::string name;
  bool held = false;
  std::string detail;  // what was measured
};

struct Trace {
  std::vector<Series> series;
  std::vector<Invariant> invariants;
  std::string output;  // the document-style lines the scenario printed

  // Adds a float series; `cross` defaults to the same-environment tolerance.
  Series& add(std::string name, DType produced, std::vector<double> values, Tolerance tol = {},
              std::string unit = "");
  Series& add_ints(std::string name, DType produced, std::vector<int64_t> values, Tolerance tol = {},
                   std::string unit = "");
  void check(std::string name, bool held, std::string detail);
  const Series* find(const std::string& name) const;
};

}  // namespace trainproof
