// The band lane's arithmetic (core/band.h): Student's t against tabulated values, the band's
// mean and spread, the first step outside it, and Welch's test; each with the case it must reject.
#include <cmath>
#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

#include "trainproof/core/band.h"

namespace trainproof {
namespace {

Trace run(std::vector<double> loss, std::vector<int64_t> steps = {1, 2, 3}) {
  Trace t;
  t.add_ints("step", DType::kInt64, std::move(steps));
  t.add("loss", DType::kFloat64, std::move(loss));
  return t;
}

TEST(BandTest, StudentTMatchesItsTables) {
  EXPECT_NEAR(student_t_cdf(2.776445, 4), 0.975, 1e-6);  // t(0.975; 4)
  EXPECT_NEAR(student_t_cdf(-1.0, 1), 0.25, 1e-12);      // Cauchy
  EXPECT_NEAR(student_t_cdf(0.0, 7), 0.5, 1e-12);
  EXPECT_NEAR(student_t_quantile(0.975, 10), 2.228139, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.995, 2), 9.924843, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.025, 10), -2.228139, 1e-5);
}

TEST(BandTest, DefaultWidthIsTheDocumentedOneAndNarrowsWithRuns) {
  EXPECT_NEAR(default_band_k(5, 180), 19.8, 0.05);  // docs/check.md states these two
  EXPECT_NEAR(default_band_k(10, 180), 7.5, 0.05);
  EXPECT_GT(default_band_k(3, 180), default_band_k(5, 180));
  EXPECT_GT(default_band_k(5, 1000), default_band_k(5, 180));  // more points, wider per point
  EXPECT_THROW(default_band_k(1, 180), std::invalid_argument);
}

TEST(BandTest, MeanAndSpreadPerStepAndEachRunsFinal) {
  const BandGolden g = make_band({run({1, 2, 3}), run({3, 2, 5}), run({2, 2, 4})}, "repeats");
  EXPECT_EQ(g.band.runs, 3);
  EXPECT_EQ(g.mean.find("step")->ints, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(g.mean.find("loss")->values, (std::vector<double>{2, 2, 4}));
  EXPECT_EQ(g.band.spread.at("loss"), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(g.band.finals.at("loss"), (std::vector<double>{3, 5, 4}));
  EXPECT_EQ(g.band.spread.count("step"), 0u);
}

TEST(BandTest, TooFewRunsOrDifferentStepsAreRefused) {
  EXPECT_THROW(make_band({run({1, 2, 3}), run({1, 2, 3})}, "repeats"), std::invalid_argument);
  EXPECT_THROW(make_band({run({1, 2, 3}), run({1, 2, 3}), run({1, 2, 3}, {1, 2, 4})}, "repeats"),
               std::invalid_argument);
}

TEST(BandTest, AStepsSpreadIsItsNeighbourhoods) {
  const std::vector<double> spread{0, 0, 0, 5, 0, 0, 0, 0};
  EXPECT_EQ(neighbourhood_spread(spread, 0), 0);
  EXPECT_EQ(neighbourhood_spread(spread, 1), 5);
  EXPECT_EQ(neighbourhood_spread(spread, 5), 5);
  EXPECT_EQ(neighbourhood_spread(spread, 6), 0);
  EXPECT_EQ(neighbourhood_spread(spread, 7), 0);
}

TEST(BandTest, FirstStepOutsideIsNamedAndInsideIsNot) {
  const BandGolden g = make_band({run({1, 2, 3}), run({3, 2, 5}), run({2, 2, 4})}, "repeats");
  EXPECT_FALSE(first_outside_band(g.mean, g.band, run({2.9, 2, 4.9}), 1.0));
  const auto e = first_outside_band(g.mean, g.band, run({2, 2, 5.5}), 1.0);  // 1.5 spreads off at step 3
  ASSERT_TRUE(e);
  EXPECT_EQ(e->series, "loss");
  EXPECT_EQ(e->index, 2u);
  EXPECT_FALSE(first_outside_band(g.mean, g.band, run({2, 2, 5.5}), 2.0));
  EXPECT_TRUE(first_outside_band(g.mean, g.band, run({2, std::numeric_limits<double>::quiet_NaN(), 4}), 5.0));
  // Far from any step with a spread, the floor (1e-6 of the mean) is all the band allows.
  const std::vector<int64_t> steps{1, 2, 3, 4, 5, 6};
  const BandGolden flat = make_band(
      {run({1, 2, 2, 2, 2, 2}, steps), run({3, 2, 2, 2, 2, 2}, steps), run({2, 2, 2, 2, 2, 2}, steps)}, "repeats");
  EXPECT_FALSE(first_outside_band(flat.mean, flat.band, run({2, 2, 2, 2, 2, 2 + 1e-7}, steps), 5.0));
  const auto off = first_outside_band(flat.mean, flat.band, run({2, 2, 2, 2, 2, 2.001}, steps), 5.0);
  ASSERT_TRUE(off);
  EXPECT_EQ(off->index, 5u);
  EXPECT_FALSE(first_outside_band(flat.mean, flat.band, run({2, 2, 2.001, 2, 2, 2}, steps), 5.0));  // near step 1
}

TEST(BandTest, WelchTestsOneSideOnly) {
  const WelchTest up = welch_higher({1, 2, 3, 4, 5}, {6, 7, 8});
  EXPECT_NEAR(up.t, 4.0 / std::sqrt(2.5 / 5 + 1.0 / 3), 1e-12);
  EXPECT_NEAR(up.df, 5.882, 1e-3);  // Welch-Satterthwaite
  EXPECT_LT(up.p, 0.01);
  EXPECT_TRUE(up.higher());
  const WelchTest down = welch_higher({6, 7, 8}, {1, 2, 3, 4, 5});
  EXPECT_GT(down.p, 0.99);
  EXPECT_FALSE(down.higher());
  const WelchTest same = welch_higher({1, 2, 3}, {1, 2, 3});
  EXPECT_NEAR(same.p, 0.5, 1e-12);
  EXPECT_FALSE(same.higher());
  const WelchTest flat = welch_higher({2, 2, 2}, {3, 3});  // no spread: the means as they are
  EXPECT_TRUE(flat.constant);
  EXPECT_TRUE(flat.higher());
  EXPECT_THROW(welch_higher({1, 2}, {3}), std::invalid_argument);
}

}  // namespace
}  // namespace trainproof
