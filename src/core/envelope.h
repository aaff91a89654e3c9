// Cross-environment tolerances measured, not guessed: the spread of a series across the
// execution paths of one CPU, times a stated safety factor, never below a floor that follows
// from the dtype and never above the ceiling the scenario declares from the document's claim.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "trainproof/core/trace.h"

namespace trainproof {

// The default safety factor on the measured spread (README, "Cross-machine verification").
inline constexpr double kDefaultSafetyFactor = 4.0;

// The smallest tolerance any float series gets across machines: a few units in the last
// place of the dtype it was produced in (libm and compiler differences); integers: exact.
Tolerance dtype_floor(DType d);
// The ceiling for a series whose scenario declares none: rel(1e-3) of the series' largest
// magnitude for floats (tight enough that a 1% change is always caught), exact for integers.
Tolerance default_ceiling(DType d);

// The ceiling of a series: its own (declared, or the one a golden recorded) or the default.
Tolerance ceiling_of(const Series& s);
// The same as an absolute allowance: abs(a) as a, rel(r) as r times the largest magnitude.
double ceiling_allowance(const Series& s);

// One other execution path's values of the same series.
struct PathSeries {
  std::string path;
  const Series* series;  // null when that path did not produce the series
};

// Sets `ref.cross` and `ref.provenance` from how far `others` lie from `ref`'s values.
// A series whose scenario declared its cross tolerance `any` stays informational. Returns
// false when the spread times the factor exceeds the ceiling (the tolerance is then clamped
// to the ceiling, provenance.clamped is set, and the paths that broke it are named).
bool measure_cross_tolerance(Series& ref, const std::vector<PathSeries>& others, double factor);

// The smallest relative change r that `tol` catches when every value of the series is
// scaled by (1 + r): min over nonzero values of allowance / |value|. Infinity for an
// informational series; NaN for a series of zeros, which no scaling changes.
double smallest_caught_change(const Series& s, const Tolerance& tol);

}  // namespace trainproof
