// Tolerance policies: parsing, printing, and what each accepts, in each dtype.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "trainproof/core/dtype.h"
#include "trainproof/core/tolerance.h"

namespace trainproof {
namespace {

TEST(ToleranceTest, ParsesAndPrintsEveryTerm) {
  for (const char* text :
       {"exact", "ulp(4)", "abs(1e-06)", "rel(0.001)", "ulp(2) or abs(1e-07)", "exact or nan_ok", "any"})
    EXPECT_EQ(Tolerance::parse(text).str(), text);
}

TEST(ToleranceTest, RejectsUnknownTermsNamingThem) {
  try {
    Tolerance::parse("abs(1e-6) or close(3)");
    FAIL() << "expected a parse error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("close(3)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Tolerance::parse("abs(-1)"), std::invalid_argument);
  EXPECT_THROW(Tolerance::parse("ulp(1.5)"), std::invalid_argument);
  EXPECT_THROW(Tolerance::parse(""), std::invalid_argument);
}

TEST(ToleranceTest, ExactIsBitwise) {
  const Tolerance t = Tolerance::exact();
  EXPECT_TRUE(t.accepts(1.5, 1.5, DType::kFloat32));
  EXPECT_FALSE(t.accepts(1.5, std::nextafter(1.5, 2.0), DType::kFloat64));
  EXPECT_FALSE(t.accepts(0.0, -0.0, DType::kFloat32)) << "+0 and -0 differ bitwise";
  EXPECT_TRUE(t.accepts(INFINITY, INFINITY, DType::kFloat32));
}

TEST(ToleranceTest, AbsAndRelBoundTheDifference) {
  EXPECT_TRUE(Tolerance::abs(1e-3).accepts(1.0, 1.0009, DType::kFloat64));
  EXPECT_FALSE(Tolerance::abs(1e-3).accepts(1.0, 1.0011, DType::kFloat64));
  EXPECT_TRUE(Tolerance::rel(1e-2).accepts(100.0, 100.9, DType::kFloat64));
  EXPECT_FALSE(Tolerance::rel(1e-2).accepts(100.0, 101.1, DType::kFloat64));
  EXPECT_FALSE(Tolerance::rel(1e-2).accepts(INFINITY, 1e308, DType::kFloat64));
}

TEST(ToleranceTest, UlpIsMeasuredInTheProducedDType) {
  const float one_up = std::nextafter(1.0f, 2.0f);
  EXPECT_EQ(ulp_distance(1.0, one_up, DType::kFloat32), 1u);
  EXPECT_TRUE(Tolerance::ulp(1).accepts(1.0, one_up, DType::kFloat32));
  EXPECT_FALSE(Tolerance::ulp(0).accepts(1.0, one_up, DType::kFloat32));
  // float16 spacing at 1 is 2^-10, bfloat16's is 2^-7.
  EXPECT_EQ(ulp_distance(1.0, 1.0 + 1.0 / 1024, DType::kFloat16), 1u);
  EXPECT_EQ(ulp_distance(1.0, 1.0 + 1.0 / 128, DType::kBFloat16), 1u);
  EXPECT_EQ(ulp_distance(1.0, 1.0 + 4.0 / 128, DType::kBFloat16), 4u);
  // Across zero and through float16 subnormals (spacing 2^-24).
  EXPECT_EQ(ulp_distance(0.0, -0.0, DType::kFloat32), 1u);
  EXPECT_EQ(ulp_distance(std::ldexp(1.0, -24), std::ldexp(3.0, -24), DType::kFloat16), 2u);
  EXPECT_EQ(ulp_distance(std::ldexp(1.0, -24), -std::ldexp(1.0, -24), DType::kFloat16), 3u);
}

TEST(ToleranceTest, Float16RoundingMatchesIeee) {
  EXPECT_EQ(float_bits(1.0, DType::kFloat16), 0x3c00u);
  EXPECT_EQ(float_bits(65504.0, DType::kFloat16), 0x7bffu);
  EXPECT_EQ(float_bits(65520.0, DType::kFloat16), 0x7c00u);               // rounds to inf
  EXPECT_EQ(float_bits(std::ldexp(1.0, -24), DType::kFloat16), 0x0001u);  // smallest subnormal
  EXPECT_EQ(float_bits(std::ldexp(1.0, -25), DType::kFloat16), 0x0000u);  // tie rounds to even (0)
  EXPECT_EQ(float_bits(1e-8, DType::kFloat16), 0x0000u);                  // the document's underflow
  EXPECT_EQ(float_bits(1.0, DType::kBFloat16), 0x3f80u);
}

TEST(ToleranceTest, NanEqualsNothingUnlessDeclared) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(Tolerance::exact().accepts(nan, nan, DType::kFloat32));
  EXPECT_FALSE(Tolerance::abs(1e9).accepts(nan, 1.0, DType::kFloat32));
  EXPECT_TRUE(Tolerance::exact().nan_ok().accepts(nan, nan, DType::kFloat32));
  EXPECT_FALSE(Tolerance::exact().nan_ok().accepts(nan, 1.0, DType::kFloat32));
}

TEST(ToleranceTest, AnyOfCombination) {
  const Tolerance t = Tolerance::parse("abs(1e-3) or rel(0.5)");
  EXPECT_TRUE(t.accepts(0.0, 0.0005, DType::kFloat64));    // by abs
  EXPECT_TRUE(t.accepts(100.0, 140.0, DType::kFloat64));   // by rel
  EXPECT_FALSE(t.accepts(100.0, 160.0, DType::kFloat64));  // by neither
  EXPECT_TRUE(Tolerance::any().accepts(1.0, 1e30, DType::kFloat64));
}

}  // namespace
}  // namespace trainproof
