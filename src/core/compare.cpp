// Series comparison: error statistics and first divergence under a tolerance.
#include "trainproof/core/compare.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace trainproof {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "FAIL";
    case Verdict::kMissingSeries:
      return "MISSING";
    case Verdict::kNewSeries:
      return "NEW";
    case Verdict::kLengthMismatch:
      return "LENGTH";
    case Verdict::kDTypeMismatch:
      return "DTYPE";
  }
  return "?";
}

SeriesComparison compare_series_with(const Series& golden, const Series& observed, const Tolerance& tol) {
  SeriesComparison r;
  r.series = golden.name;
  r.tolerance = tol.str();
  r.golden_size = golden.size();
  r.observed_size = observed.size();
  if (golden.produced != observed.produced) {
    r.verdict = Verdict::kDTypeMismatch;
    r.detail = fmt::format("produced in {} but the golden was produced in {}", dtype_name(observed.produced),
                           dtype_name(golden.produced));
    return r;
  }
  const bool integer = is_integer(golden.produced);
  const size_t n = std::min(r.golden_size, r.observed_size);
  for (size_t i = 0; i < n; ++i) {
    if (integer
            ? golden.ints[i] == observed.ints[i]
            : std::memcmp(&golden.values[i], &observed.values[i], sizeof(double)) == 0 && !std::isnan(golden.values[i]))
      continue;  // bitwise equal: passes every policy, adds no error
    const double g = golden.at(i), o = observed.at(i);
    // Integers compare as integers: through double, 2^63-1 and 2^63-2 would look equal.
    const bool ok =
        integer ? !tol.is_exact() && tol.accepts(g, o, golden.produced) : tol.accepts(g, o, golden.produced);
    if (!std::isnan(g) && !std::isnan(o) && !std::isinf(g) && !std::isinf(o)) {
      const double diff = std::fabs(g - o);
      r.max_abs = std::max(r.max_abs, diff);
      if (diff > 0) r.max_rel = std::max(r.max_rel, g == 0 ? INFINITY : diff / std::fabs(g));
      if (!integer) r.max_ulp = std::max(r.max_ulp, ulp_distance(g, o, golden.produced));
    } else if (!ok) {
      r.max_abs = r.max_rel = INFINITY;
    }
    if (!ok) {
      if (r.first_divergence < 0) {
        r.first_divergence = static_cast<int64_t>(i);
        r.golden_value = g;
        r.observed_value = o;
      }
      ++r.divergent;
    }
  }
  if (r.golden_size != r.observed_size) {
    r.verdict = Verdict::kLengthMismatch;
    if (r.first_divergence < 0) r.first_divergence = static_cast<int64_t>(n);
    r.detail = fmt::format("golden has {} values, observed {}", r.golden_size, r.observed_size);
  } else if (r.divergent > 0) {
    r.verdict = Verdict::kFail;
    r.detail = fmt::format("{} of {} values outside {}; first at [{}]: golden {:.9g}, observed {:.9g}", r.divergent, n,
                           r.tolerance, r.first_divergence, r.golden_value, r.observed_value);
  }
  return r;
}

SeriesComparison compare_series(const Series& golden, const Series& observed, bool cross_environment) {
  return compare_series_with(golden, observed, cross_environment ? golden.cross : golden.tolerance);
}

std::vector<SeriesComparison> compare_traces(const Trace& golden, const Trace& observed, bool cross_environment) {
  std::vector<SeriesComparison> out;
  for (const auto& g : golden.series) {
    if (const Series* o = observed.find(g.name)) {
      out.push_back(compare_series(g, *o, cross_environment));
    } else {
      SeriesComparison r;
      r.series = g.name;
      r.verdict = Verdict::kMissingSeries;
      r.golden_size = g.size();
      r.detail = "in the golden but not produced by this run";
      out.push_back(r);
    }
  }
  for (const auto& o : observed.series) {
    if (golden.find(o.name)) continue;
    SeriesComparison r;
    r.series = o.name;
    r.verdict = Verdict::kNewSeries;
    r.observed_size = o.size();
    r.detail = "produced by this run but absent from the golden (regen to accept)";
    out.push_back(r);
  }
  return out;
}

bool within_last_digit(const std::string& printed, const std::string& expected) {
  const std::string &got = printed, &want = expected;
  if (got.size() != want.size()) return false;
  size_t i = 0;
  while (i < got.size()) {
    if (!std::isdigit(static_cast<unsigned char>(got[i]))) {
      if (got[i] != want[i]) return false;
      ++i;
      continue;
    }
    size_t j = i;  // one run of digits and a decimal point, at the same positions in both
    while (j < got.size() && (std::isdigit(static_cast<unsigned char>(got[j])) || got[j] == '.')) {
      if (want[j] == '.' ? got[j] != '.' : !std::isdigit(static_cast<unsigned char>(want[j]))) return false;
      ++j;
    }
    std::string a = got.substr(i, j - i), b = want.substr(i, j - i);
    std::erase(a, '.');
    std::erase(b, '.');
    if (a != b) {
      const size_t significant = b.size() - std::min(b.find_first_not_of('0'), b.size());
      if (a.size() > 18 || significant < 4 || std::llabs(std::stoll(a) - std::stoll(b)) > 1) return false;
    }
    i = j;
  }
  return true;
}

}  // namespace trainproof
