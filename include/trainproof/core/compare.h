// Compares an observed trace with its golden, series by series: pass/fail, max abs,
// rel and ulp error, and the first index where they diverge.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trainproof/core/trace.h"

namespace trainproof {

enum class Verdict { kPass, kFail, kMissingSeries, kNewSeries, kLengthMismatch, kDTypeMismatch };
std::string_view verdict_name(Verdict v);

struct SeriesComparison {
  std::string series;
  Verdict verdict = Verdict::kPass;
  std::string tolerance;  // the policy applied
  size_t golden_size = 0, observed_size = 0;
  double max_abs = 0, max_rel = 0;
  uint64_t max_ulp = 0;  // in the produced dtype; 0 for integers
  int64_t first_divergence = -1;
  size_t divergent = 0;                         // how many elements fail the tolerance
  double golden_value = 0, observed_value = 0;  // at first_divergence
  std::string detail;                           // a human sentence for anything but a plain pass

  bool passed() const { return verdict == Verdict::kPass; }
};

// The golden's own tolerances apply (they are what regen measured): `cross_environment`
// selects its tolerance_cross (golden made elsewhere) over its same-environment tolerance.
SeriesComparison compare_series(const Series& golden, const Series& observed, bool cross_environment);

// Every golden series must be observed and vice versa; order follows the golden.
std::vector<SeriesComparison> compare_traces(const Trace& golden, const Trace& observed, bool cross_environment);

// Same measurement with an explicit policy (used by regen to describe changes exactly).
SeriesComparison compare_series_with(const Series& golden, const Series& observed, const Tolerance& tol);

// Whether a printed line differs from the expected one only in the last digit of numbers of
// at least 4 significant digits, by one unit: a value another machine's kernels moved by an
// ulp or so can round to the neighbouring last digit ("7.319561" and "7.319560"), while
// "0." and "1." stay different. The text around the numbers, and their formats, are equal.
bool within_last_digit(const std::string& printed, const std::string& expected);

}  // namespace trainproof
