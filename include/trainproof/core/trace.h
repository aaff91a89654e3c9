// A Trace is what a scenario produces: named 1-D series, each with the dtype it was
// produced in and the tolerance it declares, plus invariants and the printed output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trainproof/core/dtype.h"
#include "trainproof/core/tolerance.h"

namespace trainproof {

// Where a series' cross-environment tolerance came from (golden schema 2): its spread
// across the execution paths regen ran, the safety factor and the dtype floor (the ceiling
// applied is the series' own `ceiling`).
struct Provenance {
  double spread_abs = 0;  // largest |path value - reference value| over every path and index
  double spread_rel = 0;  // spread_abs / the series' largest magnitude
  double factor = 0;      // the safety factor applied to spread_abs
  std::string floor;      // the dtype's floor, e.g. "ulp(4)"
  bool clamped = false;   // spread x factor exceeded the ceiling
  std::string differing;  // the paths whose values were not bitwise the reference's
  std::string beyond;     // the paths beyond the ceiling (when clamped)
};

struct Series {
  std::string name;
  DType produced = DType::kFloat32;
  std::vector<double> values;  // float dtypes (each value exact in its dtype)
  std::vector<int64_t> ints;   // integer dtypes
  Tolerance tolerance;         // golden made in the same environment
  Tolerance cross;             // golden made in another environment (measured by regen)
  std::string unit;
  // The most any machine may move this series, as abs(a) or rel(r) of its largest value:
  // declared by the scenario from its document's claim (or check --ceiling); in a golden, the
  // one regen applied (its cross_ceiling). None: the default (envelope.h's ceiling_of).
  std::optional<Tolerance> ceiling;
  std::optional<Provenance> provenance;  // how `cross` was measured; absent in schema 1
  // Why the series differs between a CPU and a CUDA run by design (the device's own RNG draws
  // the dropout masks, another dtype, a per-device refusal), declared by its scenario: a
  // cross-device comparison leaves it out and says why. Empty: held within its ceiling there.
  std::string across_devices;

  size_t size() const { return is_integer(produced) ? ints.size() : values.size(); }
  double at(size_t i) const { return is_integer(produced) ? static_cast<double>(ints[i]) : values[i]; }
};

// A law that must hold on any hardware (resumed == uninterrupted, fp16(1e-8) == 0, ...): a
// scenario's invariant, and a law `trainproof check` holds a command to.
struct Invariant {
  std::string name;
  bool held = false;
  std::string detail;   // what was measured
  bool advice = false;  // said, never broken (check's determinism in the band lane)
};

struct Trace {
  std::vector<Series> series;
  std::vector<Invariant> invariants;
  std::string output;  // the document-style lines the scenario printed

  // Adds a float series; `cross` defaults to the same-environment tolerance.
  Series& add(std::string name, DType produced, std::vector<double> values, Tolerance tol = {}, std::string unit = "");
  Series& add_ints(std::string name, DType produced, std::vector<int64_t> values, Tolerance tol = {},
                   std::string unit = "");
  void check(std::string name, bool held, std::string detail);
  const Series* find(const std::string& name) const;
  // Declares every series so far that holds a claim (not informational) to differ between CPU
  // and CUDA by design, for `why` (Series::across_devices).
  void differ_across_devices(const std::string& why);
};

// How a run that should record a trace ended: it recorded it (ok), it cannot run here (skipped),
// or it failed (error). Between processes as "ok", "skipped", "error".
enum class RunStatus { kOk, kSkipped, kError };
const char* run_status_text(RunStatus s);
// run_status_text() read back; nullopt for any other text.
std::optional<RunStatus> run_status_from_text(const std::string& text);

}  // namespace trainproof
