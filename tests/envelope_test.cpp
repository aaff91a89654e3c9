// Measured cross-environment tolerances: spread x factor, the dtype floor, the ceiling the
// scenario declares, and what the result catches.
#include <cmath>

#include <gtest/gtest.h>

#include "src/core/envelope.h"
#include "trainproof/core/compare.h"

namespace trainproof {
namespace {

Series f32(std::vector<double> v) {
  Series s;
  s.name = "x";
  s.produced = DType::kFloat32;
  for (double& x : v) x = static_cast<float>(x);
  s.values = std::move(v);
  return s;
}

TEST(EnvelopeTest, NoSpreadGivesTheDtypeFloor) {
  Series ref = f32({1.0, 2.0});
  const Series same = ref;
  EXPECT_TRUE(measure_cross_tolerance(ref, {{"threads-1", &same}}, 4));
  EXPECT_EQ(ref.cross.str(), "ulp(4)");
  ASSERT_TRUE(ref.provenance);
  EXPECT_EQ(ref.provenance->spread_abs, 0);
  EXPECT_EQ(ref.provenance->differing, "");
}

TEST(EnvelopeTest, SpreadTimesTheFactorRoundedUpAndNamed) {
  Series ref = f32({1.0, -2.0});
  const Series near = f32({1.0, -2.0 + 1.2e-6});
  EXPECT_TRUE(measure_cross_tolerance(ref, {{"aten-default", &near}, {"native-copy", &ref}}, 4));
  const double spread = std::fabs(near.values[1] - ref.values[1]);
  EXPECT_EQ(ref.provenance->spread_abs, spread);
  EXPECT_EQ(ref.provenance->differing, "aten-default");
  EXPECT_EQ(ref.provenance->factor, 4);
  const auto bound = ref.cross.abs_bound();
  ASSERT_TRUE(bound);
  EXPECT_GE(*bound, 4 * spread);
  EXPECT_LE(*bound, 4 * spread * 1.01);  // three significant digits, rounded up
  // The measured tolerance accepts the path it was measured on, and not twice the factor.
  EXPECT_TRUE(compare_series(ref, near, /*cross=*/true).passed());
  Series far = ref;
  far.values[1] = ref.values[1] + 9 * spread;
  EXPECT_FALSE(compare_series(ref, far, /*cross=*/true).passed());
}

TEST(EnvelopeTest, BeyondTheCeilingIsRefusedAndClamped) {
  Series ref = f32({4.0});
  ref.ceiling = Tolerance::abs(0.005);
  const Series moved = f32({4.01});
  EXPECT_FALSE(measure_cross_tolerance(ref, {{"generic-1t", &moved}}, 4));
  EXPECT_TRUE(ref.provenance->clamped);
  EXPECT_EQ(ref.provenance->beyond, "generic-1t");
  EXPECT_EQ(ref.cross.abs_bound().value_or(0), 0.005);
}

TEST(EnvelopeTest, RelativeCeilingScalesWithTheLargestValue) {
  Series ref = f32({100.0, 0.001});
  const Series moved = f32({100.02, 0.001});  // 2e-4 of the scale: x4 = 8e-4 < rel(1e-3)
  EXPECT_TRUE(measure_cross_tolerance(ref, {{"p", &moved}}, 4));
  Series ref2 = f32({100.0, 0.001});
  const Series moved2 = f32({100.05, 0.001});  // x4 = 2e-3 > rel(1e-3): the default ceiling
  EXPECT_FALSE(measure_cross_tolerance(ref2, {{"p", &moved2}}, 4));
}

TEST(EnvelopeTest, MissingSeriesOrAnotherLengthIsRefused) {
  Series ref = f32({1.0, 2.0});
  EXPECT_FALSE(measure_cross_tolerance(ref, {{"p", nullptr}}, 4));
  Series ref2 = f32({1.0, 2.0});
  const Series shorter = f32({1.0});
  EXPECT_FALSE(measure_cross_tolerance(ref2, {{"p", &shorter}}, 4));
}

TEST(EnvelopeTest, IntegersNeverLoosen) {
  Series ref;
  ref.name = "verdicts";
  ref.produced = DType::kInt32;
  ref.ints = {0, 1, 2};
  Series other = ref;
  EXPECT_TRUE(measure_cross_tolerance(ref, {{"p", &other}}, 4));
  EXPECT_TRUE(ref.cross.is_exact());
  other.ints[2] = 1;
  EXPECT_FALSE(measure_cross_tolerance(ref, {{"p", &other}}, 4));
}

TEST(EnvelopeTest, InformationalSeriesStayInformational) {
  Series ref = f32({1.0});
  ref.cross = Tolerance::any();
  const Series other = f32({5.0});
  EXPECT_TRUE(measure_cross_tolerance(ref, {{"p", &other}}, 4));
  EXPECT_TRUE(ref.cross.is_any());
  EXPECT_FALSE(ref.provenance);
}

TEST(EnvelopeTest, SmallestCaughtChangeIsTheTightestValue) {
  const Series s = f32({0.5, 2.0, 0.0});
  EXPECT_DOUBLE_EQ(smallest_caught_change(s, Tolerance::abs(1e-3)), 1e-3 / 2.0);
  EXPECT_DOUBLE_EQ(smallest_caught_change(s, Tolerance::rel(1e-2)), 1e-2);
  EXPECT_TRUE(std::isinf(smallest_caught_change(s, Tolerance::any())));
  EXPECT_TRUE(std::isnan(smallest_caught_change(f32({0.0, 0.0}), Tolerance::abs(1e-3))));
  // ulp(4) in float32 at 0.5 and at 2.0: 4 * 2^-24 / 0.5 = 4 * 2^-22 / 2.0.
  EXPECT_DOUBLE_EQ(smallest_caught_change(s, Tolerance::ulp(4)), 4 * std::ldexp(1.0, -24) / 0.5);
}

}  // namespace
}  // namespace trainproof
