// The statistical lane (`check --band`): for a loop whose runs are not bitwise equal (GPU
// atomics, cuDNN algorithm choice, NCCL reduction order), N runs give, per series and step,
// a mean and a spread; a fresh run is held to mean +- k spreads, and the final values of M
// fresh runs to the golden's by a one-sided Welch t-test (MLPerf's convergence check).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "trainproof/core/trace.h"

namespace trainproof {

inline constexpr int64_t kBandMinRuns = 3;        // the spread of fewer runs says nothing
inline constexpr double kBandFamilyAlpha = 0.01;  // an unchanged run leaves the band anywhere: the default k
inline constexpr double kBandFinalAlpha = 0.05;   // one-sided: the final values' t-test
inline constexpr double kBandSpreadFloor = 1e-6;  // relative to |mean|: the spread never counts as below this
inline constexpr size_t kBandSpreadWindow = 2;    // a step's spread: the widest of the steps within 2 of it

// What the golden keeps beside the mean trace (golden schema 3: the /<device>/band group).
struct Band {
  int64_t runs = 0;
  std::string varied;                                 // "repeats", or the seed argument ("--seed {seed}", seeds 0..N-1)
  std::map<std::string, std::vector<double>> spread;  // per series, per step: the runs' sample standard deviation
  std::map<std::string, std::vector<double>> finals;  // per series: each run's last value
};

// The mean trace (the first run's series, values averaged per step; "step" and every
// parameter series left out) and the band. Throws std::invalid_argument for fewer than
// kBandMinRuns runs, or runs that recorded different steps or scalars.
struct BandGolden {
  Trace mean;
  Band band;
};
BandGolden make_band(const std::vector<Trace>& runs, std::string varied);

// The default width in spreads for a band of `runs` over `points` (steps x series): a two-sided
// prediction interval for one fresh value, Bonferroni-corrected so that an unchanged run
// leaves the band anywhere with chance kBandFamilyAlpha: t(1 - alpha/(2 points); N-1) *
// sqrt(1 + 1/N). For 180 points: N = 5 gives 19.8, N = 10 gives 7.5.
double default_band_k(int64_t runs, size_t points);
size_t band_points(const Band& band);

// A step's spread as the band holds it: the widest of the steps within kBandSpreadWindow of
// it. The spread of few runs at one step is often far too small (a training curve's step-to-
// step noise is heavy-tailed: one run in 13 sits 2.8 spreads off where its neighbours' sit
// within 2.5); its neighbours' are estimates of nearly the same thing.
double neighbourhood_spread(const std::vector<double>& spread, size_t i);

// The first step (in step order, then series order) where `run` lies outside mean +- k
// spreads (neighbourhood_spread, floored at kBandSpreadFloor * |mean|); nullopt when inside.
struct BandExcursion {
  std::string series;
  size_t index = 0;  // into the series
  double value = 0, mean = 0, spread = 0, k = 0;
  std::string str(int64_t step) const;
};
std::optional<BandExcursion> first_outside_band(const Trace& mean, const Band& band, const Trace& run, double k);

// One-sided Welch t-test of H1 "the runs' mean is higher than the golden's" (a loss that rose).
struct WelchTest {
  double golden_mean = 0, runs_mean = 0, t = 0, df = 0, p = 1;
  size_t n_golden = 0, n_runs = 0;
  bool constant = false;  // no spread on either side: no test, the means compared as they are
  bool higher(double alpha = kBandFinalAlpha) const;
  std::string str() const;
};
WelchTest welch_higher(const std::vector<double>& golden, const std::vector<double>& runs);

// Student's t distribution: P(T <= t) with df degrees of freedom, and its inverse.
double student_t_cdf(double t, double df);
double student_t_quantile(double p, double df);

}  // namespace trainproof
