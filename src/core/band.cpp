// The statistical lane's arithmetic (band.h): per-step mean and spread, the band's width from
// Student's t, and Welch's test of the final values.
#include "trainproof/core/band.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace trainproof {
namespace {

bool banded(const Series& s) {
  return s.name != "step" && s.name.rfind("param.", 0) != 0;
}

double mean_of(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(v.size());
}

double sample_variance(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return ss / static_cast<double>(v.size() - 1);
}

// The regularized incomplete beta function I_x(a, b), by its continued fraction (modified Lentz).
double continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300, eps = 1e-15;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  d = 1 / (std::fabs(d) < tiny ? tiny : d);
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    d = 1 / (std::fabs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    d = 1 / (std::fabs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < eps) break;
  }
  return h;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * continued_fraction(a, b, x) / a;
  return 1 - front * continued_fraction(b, a, 1 - x) / b;
}

}  // namespace

double neighbourhood_spread(const std::vector<double>& spread, size_t i) {
  const size_t from = i < kBandSpreadWindow ? 0 : i - kBandSpreadWindow;
  const size_t to = std::min(spread.size(), i + kBandSpreadWindow + 1);
  double widest = 0;
  for (size_t j = from; j < to; ++j) widest = std::max(widest, spread[j]);
  return widest;
}

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  const double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0)) throw std::invalid_argument(fmt::format("t quantile of p = {}, df = {}", p, df));
  if (p < 0.5) return -student_t_quantile(1 - p, df);
  double lo = 0, hi = 1;
  while (student_t_cdf(hi, df) < p) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double default_band_k(int64_t runs, size_t points) {
  if (runs < 2) throw std::invalid_argument(fmt::format("a band of {} run(s) has no spread", runs));
  const double n = static_cast<double>(runs),
               per_point = kBandFamilyAlpha / static_cast<double>(std::max<size_t>(points, 1));
  return student_t_quantile(1 - per_point / 2, n - 1) * std::sqrt(1 + 1 / n);
}

size_t band_points(const Band& band) {
  size_t n = 0;
  for (const auto& [series, spread] : band.spread) n += spread.size();
  return n;
}

BandGolden make_band(const std::vector<Trace>& runs, std::string varied) {
  if (static_cast<int64_t>(runs.size()) < kBandMinRuns)
    throw std::invalid_argument(fmt::format("a band needs at least {} runs, not {}: the spread of fewer says nothing",
                                            kBandMinRuns, runs.size()));
  BandGolden g;
  g.band.runs = static_cast<int64_t>(runs.size());
  g.band.varied = std::move(varied);
  const Trace& first = runs.front();
  const Series* steps = first.find("step");
  for (size_t r = 1; r < runs.size(); ++r) {
    const Series* other = runs[r].find("step");
    if ((steps == nullptr) != (other == nullptr) || (steps && steps->ints != other->ints))
      throw std::invalid_argument(fmt::format("run {} recorded other steps than run 1", r + 1));
  }
  if (steps) g.mean.series.push_back(*steps);
  for (const Series& s : first.series) {
    if (!banded(s)) continue;
    std::vector<const Series*> each;
    for (size_t r = 0; r < runs.size(); ++r) {
      const Series* x = runs[r].find(s.name);
      if (!x || x->size() != s.size())
        throw std::invalid_argument(fmt::format("run {} has no series '{}' of {} steps", r + 1, s.name, s.size()));
      each.push_back(x);
    }
    Series mean = s;
    mean.ints.clear();
    mean.produced = DType::kFloat64;
    mean.values.assign(s.size(), 0);
    std::vector<double>& spread = g.band.spread[s.name];
    spread.assign(s.size(), 0);
    for (size_t i = 0; i < s.size(); ++i) {
      std::vector<double> at;
      for (const Series* x : each) at.push_back(x->at(i));
      mean.values[i] = mean_of(at);
      spread[i] = std::sqrt(sample_variance(at));
    }
    std::vector<double>& finals = g.band.finals[s.name];
    for (const Series* x : each) finals.push_back(x->size() ? x->at(x->size() - 1) : 0.0);
    g.mean.series.push_back(std::move(mean));
  }
  return g;
}

std::string BandExcursion::str(int64_t step) const {
  return fmt::format("'{}' at step {}: {:.9g}, the band {:.9g} +- {:.3g} ({:.3g} x spread {:.3g})", series, step, value,
                     mean, k * spread, k, spread);
}

std::optional<BandExcursion> first_outside_band(const Trace& mean, const Band& band, const Trace& run, double k) {
  std::optional<BandExcursion> first;
  for (const Series& m : mean.series) {
    const auto spread = band.spread.find(m.name);
    if (spread == band.spread.end()) continue;
    const Series* r = run.find(m.name);
    if (!r || r->size() != m.size()) {
      BandExcursion e{m.name, 0, std::numeric_limits<double>::quiet_NaN(), m.size() ? m.at(0) : 0, 0, k};
      if (!first || e.index < first->index) first = e;
      continue;
    }
    for (size_t i = 0; i < m.size() && (!first || i < first->index); ++i) {
      const double want = m.at(i), got = r->at(i);
      if (std::isnan(want) && std::isnan(got)) continue;  // a scalar this step does not log
      const double sd = std::max(neighbourhood_spread(spread->second, i), kBandSpreadFloor * std::fabs(want));
      if (std::fabs(got - want) <= k * sd) continue;  // NaN on one side fails here
      first = BandExcursion{m.name, i, got, want, sd, k};
      break;
    }
  }
  return first;
}

bool WelchTest::higher(double alpha) const {
  return constant ? runs_mean > golden_mean : p < alpha;
}

std::string WelchTest::str() const {
  if (constant) return fmt::format("no spread: the golden's {:.9g}, the runs' {:.9g}", golden_mean, runs_mean);
  return fmt::format(
      "the golden's mean {:.9g} (n = {}), the runs' {:.9g} (n = {}): {}, Welch t = {:.3g}, df = {:.1f}, "
      "one-sided p = {:.3g}",
      golden_mean, n_golden, runs_mean, n_runs, runs_mean > golden_mean ? "higher" : "not higher", t, df, p);
}

WelchTest welch_higher(const std::vector<double>& golden, const std::vector<double>& runs) {
  if (golden.size() < 2 || runs.size() < 2)
    throw std::invalid_argument(
        fmt::format("Welch's test needs 2 values a side, not {} and {}", golden.size(), runs.size()));
  WelchTest w;
  w.n_golden = golden.size();
  w.n_runs = runs.size();
  w.golden_mean = mean_of(golden);
  w.runs_mean = mean_of(runs);
  const double n1 = static_cast<double>(golden.size()), n2 = static_cast<double>(runs.size());
  const double a = sample_variance(golden) / n1, b = sample_variance(runs) / n2;
  w.constant = a + b == 0;
  if (w.constant) return w;
  w.t = (w.runs_mean - w.golden_mean) / std::sqrt(a + b);
  w.df = (a + b) * (a + b) / (a * a / (n1 - 1) + b * b / (n2 - 1));  // Welch-Satterthwaite
  w.p = 1 - student_t_cdf(w.t, w.df);
  return w;
}

}  // namespace trainproof
