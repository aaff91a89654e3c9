// Measuring cross-environment tolerances from the execution-path matrix (envelope.h).
#include "src/core/envelope.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace trainproof {
namespace {

double largest_magnitude(const Series& s) {
  double m = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (std::isfinite(s.at(i))) m = std::max(m, std::fabs(s.at(i)));
  return m;
}

bool same_bits(const Series& a, const Series& b) {
  if (a.produced != b.produced || a.size() != b.size()) return false;
  if (is_integer(a.produced)) return a.ints == b.ints;
  return a.values.empty() || std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0;
}

// Largest |difference| between two series; infinity when they cannot be compared value by
// value (another length or dtype, a NaN or infinity on one side only).
double max_difference(const Series& ref, const Series& other) {
  if (ref.produced != other.produced || ref.size() != other.size()) return INFINITY;
  double d = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double a = ref.at(i), b = other.at(i);
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) != std::isnan(b)) return INFINITY;
      continue;
    }
    if (std::isinf(a) || std::isinf(b)) {
      if (a != b) return INFINITY;
      continue;
    }
    d = std::max(d, std::fabs(a - b));
  }
  return d;
}

// Rounds up to three significant digits: a readable bound that still covers the spread.
double round_up(double v) {
  if (v <= 0 || !std::isfinite(v)) return v;
  const double unit = std::pow(10.0, std::floor(std::log10(v)) - 2);
  return std::ceil(v / unit) * unit;
}

}  // namespace

Tolerance dtype_floor(DType d) {
  switch (d) {
    case DType::kFloat64:
    case DType::kFloat32:
      return Tolerance::ulp(4);
    case DType::kFloat16:
    case DType::kBFloat16:
      return Tolerance::ulp(1);
    default:
      return Tolerance::exact();
  }
}

Tolerance default_ceiling(DType d) {
  return is_integer(d) ? Tolerance::exact() : Tolerance::rel(1e-3);
}

Tolerance ceiling_of(const Series& s) {
  return s.ceiling ? *s.ceiling : default_ceiling(s.produced);
}

double ceiling_allowance(const Series& s) {
  const Tolerance ceiling = ceiling_of(s);
  // What the ceiling allows at the series' largest value: its abs bound or its relative one.
  return std::max(ceiling.abs_bound().value_or(0.0), ceiling.rel_bound().value_or(0.0) * largest_magnitude(s));
}

bool measure_cross_tolerance(Series& ref, const std::vector<PathSeries>& others, double factor) {
  if (ref.cross.is_any()) {  // informational (timings, hashes of bits): nothing to measure
    ref.provenance.reset();
    return true;
  }
  Provenance p;
  p.factor = factor;
  const Tolerance floor = dtype_floor(ref.produced);
  ref.ceiling = ceiling_of(ref);  // the ceiling applied, recorded with the series (cross_ceiling)
  p.floor = floor.str();
  const double scale = largest_magnitude(ref);
  const double ceiling_abs = ceiling_allowance(ref);
  std::vector<std::string> differing, beyond;
  for (const auto& o : others) {
    const double d = o.series ? max_difference(ref, *o.series) : INFINITY;
    if (o.series && same_bits(ref, *o.series)) continue;
    differing.push_back(o.path);
    p.spread_abs = std::max(p.spread_abs, d);
    if (d * factor > ceiling_abs) beyond.push_back(o.path);
  }
  p.spread_rel = scale > 0 ? p.spread_abs / scale : (p.spread_abs > 0 ? INFINITY : 0.0);
  p.differing = fmt::format("{}", fmt::join(differing, ","));
  const double wanted = p.spread_abs * factor;
  p.clamped = !beyond.empty();
  if (p.clamped) p.beyond = fmt::format("{}", fmt::join(beyond, ","));
  const double a = std::min(round_up(wanted), ceiling_abs);
  if (is_integer(ref.produced)) {
    ref.cross = a > 0 ? Tolerance::abs(a) : Tolerance::exact();
  } else {
    ref.cross = a > 0 ? floor | Tolerance::abs(a) : floor;
  }
  ref.provenance = p;
  return !p.clamped;
}

double smallest_caught_change(const Series& s, const Tolerance& tol) {
  if (tol.is_any()) return INFINITY;
  double best = NAN;
  for (size_t i = 0; i < s.size(); ++i) {
    const double v = s.at(i);
    if (v == 0 || !std::isfinite(v)) continue;
    const double r = tol.allowance(v, s.produced) / std::fabs(v);
    best = std::isnan(best) ? r : std::min(best, r);
  }
  return best;
}

}  // namespace trainproof
