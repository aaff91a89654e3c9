// The comparator: verdicts, error statistics and the first divergent index.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "trainproof/core/compare.h"
#include "trainproof/report/report.h"
#include "trainproof/verdict/golden_hold.h"

namespace trainproof {
namespace {

Series f32(std::string name, std::vector<double> v, Tolerance tol = {}) {
  Trace t;
  return t.add(std::move(name), DType::kFloat32, std::move(v), tol);
}

TEST(CompareTest, EqualSeriesPass) {
  const auto c = compare_series(f32("x", {1, 2, 3}), f32("x", {1, 2, 3}), false);
  EXPECT_TRUE(c.passed());
  EXPECT_EQ(c.first_divergence, -1);
  EXPECT_EQ(c.max_abs, 0);
}

TEST(CompareTest, ReportsFirstDivergenceAndErrors) {
  const auto c = compare_series(f32("x", {1, 2, 3, 4}), f32("x", {1, 2, 3.5, 5}), false);
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_EQ(c.first_divergence, 2);
  EXPECT_EQ(c.divergent, 2u);
  EXPECT_DOUBLE_EQ(c.max_abs, 1.0);
  EXPECT_DOUBLE_EQ(c.max_rel, 0.25);
  EXPECT_DOUBLE_EQ(c.golden_value, 3);
  EXPECT_DOUBLE_EQ(c.observed_value, 3.5);
  EXPECT_NE(c.detail.find("first at [2]"), std::string::npos) << c.detail;
}

// The golden's tolerances are what regen measured; whatever the observed run declares
// (the scenario's code) does not loosen them.
TEST(CompareTest, UsesTheGoldenSeriesTolerance) {
  const Series o = f32("x", {1.0005}, Tolerance::abs(1.0));
  EXPECT_TRUE(compare_series(f32("x", {1.0}, Tolerance::abs(1e-3)), o, false).passed());
  EXPECT_FALSE(compare_series(f32("x", {1.0}, Tolerance::exact()), o, false).passed());
}

TEST(CompareTest, CrossEnvironmentUsesTheGoldensCrossTolerance) {
  Series g = f32("x", {1.0});
  g.cross = Tolerance::abs(1e-3);
  Series o = f32("x", {1.0005});
  o.cross = Tolerance::exact();  // ignored: the golden's applies
  EXPECT_FALSE(compare_series(g, o, /*cross=*/false).passed());
  EXPECT_TRUE(compare_series(g, o, /*cross=*/true).passed());
  g.cross = Tolerance::abs(1e-4);
  EXPECT_FALSE(compare_series(g, o, /*cross=*/true).passed());
}

TEST(CompareTest, LengthMismatchFailsAtTheFirstMissingIndex) {
  const auto c = compare_series(f32("x", {1, 2, 3}), f32("x", {1, 2}), false);
  EXPECT_EQ(c.verdict, Verdict::kLengthMismatch);
  EXPECT_EQ(c.first_divergence, 2);
}

TEST(CompareTest, NanFailsUnlessExpected) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(compare_series(f32("x", {nan}), f32("x", {nan}), false).passed());
  EXPECT_TRUE(compare_series(f32("x", {nan}, Tolerance::exact().nan_ok()), f32("x", {nan}), false).passed());
  const auto c = compare_series(f32("x", {1.0}, Tolerance::abs(1.0)), f32("x", {nan}), false);
  EXPECT_FALSE(c.passed());
  EXPECT_TRUE(std::isinf(c.max_abs));
}

TEST(CompareTest, ProducedDTypeMustMatch) {
  Trace t;
  const Series g = t.add("logits", DType::kBFloat16, {1.0});
  const Series o = t.add("logits2", DType::kFloat16, {1.0});
  const auto c = compare_series(g, o, false);
  EXPECT_EQ(c.verdict, Verdict::kDTypeMismatch);
  EXPECT_NE(c.detail.find("bfloat16"), std::string::npos);
}

TEST(CompareTest, IntegerSeriesCompareExactly) {
  Trace t;
  const Series g = t.add_ints("h", DType::kInt64, {std::numeric_limits<int64_t>::max()});
  const Series o = t.add_ints("h2", DType::kInt64, {std::numeric_limits<int64_t>::max() - 1});
  EXPECT_FALSE(compare_series(g, o, false).passed()) << "must not lose precision through double";
}

TEST(CompareTest, MissingAndNewSeriesAreReported) {
  Trace golden, observed;
  golden.add("a", DType::kFloat32, {1});
  golden.add("b", DType::kFloat32, {1});
  observed.add("a", DType::kFloat32, {1});
  observed.add("c", DType::kFloat32, {1});
  const auto r = compare_traces(golden, observed, false);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].verdict, Verdict::kPass);
  EXPECT_EQ(r[1].verdict, Verdict::kMissingSeries);
  EXPECT_EQ(r[1].series, "b");
  EXPECT_EQ(r[2].verdict, Verdict::kNewSeries);
  EXPECT_EQ(r[2].series, "c");
}

// Printed numbers from another machine: one unit of the last digit of a number of 4 or more
// significant digits is a rounding flip; anything else is a difference.
TEST(CompareTest, WithinLastDigitAcceptsOnlyARoundingFlip) {
  EXPECT_TRUE(within_last_digit("uninterrupted: 7.319560", "uninterrupted: 7.319561"));
  EXPECT_TRUE(within_last_digit("best 0.5801", "best 0.5800"));
  EXPECT_FALSE(within_last_digit("step   49  lr 5.01e-04", "step   49  lr 5.00e-04"));  // 3 digits: too few
  EXPECT_TRUE(within_last_digit("same 12.5 text", "same 12.5 text"));
  EXPECT_FALSE(within_last_digit("uninterrupted: 7.319559", "uninterrupted: 7.319561"));  // two units
  EXPECT_FALSE(within_last_digit("tensor(1., dtype=torch.float16)", "tensor(0., dtype=torch.float16)"));
  EXPECT_FALSE(within_last_digit("torch.float42  1.001000", "torch.float32  1.001000"));  // 2 digits
  EXPECT_FALSE(within_last_digit("resumed: 7.319561", "uninterrupted: 7.3195"));          // other text
  EXPECT_FALSE(within_last_digit("loss 7.31956 ", "loss 7.319561"));                      // other format
}

// One hold of a trace to its golden for verify, check --golden and ddp-check: a row per series,
// and whether the values lie beyond the exact tolerances, beyond the envelope, or neither.
Trace golden_of(double cross_abs) {
  Trace g;
  g.series.push_back(f32("loss", {1.0, 0.5}));
  g.series.back().cross = Tolerance::abs(cross_abs);
  g.series.push_back(f32("lr", {0.1, 0.1}));
  return g;
}

TEST(HoldToGoldenTest, AnEqualTraceHoldsAndIsBeyondNothing) {
  const Trace g = golden_of(1e-3);
  for (bool cross : {false, true}) {
    const GoldenHold h = hold_to_golden("s", "cpu", g, g, cross);
    ASSERT_EQ(h.rows.size(), 2u);
    EXPECT_EQ(h.rows[0].kind, EntryKind::kSeries);
    EXPECT_EQ(h.rows[0].cross_environment, cross);
    EXPECT_EQ(h.failed, 0u);
    EXPECT_TRUE(h.first_failure.empty());
    EXPECT_FALSE(h.beyond_exact);
    EXPECT_FALSE(h.beyond_envelope);
  }
}

// Its negative controls: a value moved within the envelope fails only the exact tolerances (and
// passes under cross ones); moved beyond it, both; a series the run lacks fails, named first.
TEST(HoldToGoldenTest, AValueMovedBeyondExactThenBeyondTheEnvelopeFails) {
  const Trace g = golden_of(1e-3);
  Trace near = g;
  near.series[0].values[1] = 0.5005;
  GoldenHold h = hold_to_golden("s", "cpu", g, near, /*cross=*/true);
  EXPECT_EQ(h.failed, 0u);
  EXPECT_TRUE(h.beyond_exact);
  EXPECT_FALSE(h.beyond_envelope);
  h = hold_to_golden("s", "cpu", g, near, /*cross=*/false);
  EXPECT_EQ(h.failed, 1u);
  EXPECT_EQ(h.rows[0].status, Status::kFail);
  EXPECT_EQ(h.first_failure.rfind("'loss' FAIL: ", 0), 0u) << h.first_failure;
  EXPECT_TRUE(h.beyond_exact);
  EXPECT_FALSE(h.beyond_envelope);
  Trace far = g;
  far.series[0].values[1] = 0.6;
  h = hold_to_golden("s", "cpu", g, far, /*cross=*/true);
  EXPECT_EQ(h.failed, 1u);
  EXPECT_TRUE(h.beyond_exact);
  EXPECT_TRUE(h.beyond_envelope);
  h = hold_to_golden("s", "cpu", g, far, /*cross=*/false);  // the envelope is looked at all the same
  EXPECT_TRUE(h.beyond_envelope);
  Trace without_lr = g;
  without_lr.series.pop_back();
  h = hold_to_golden("s", "cpu", g, without_lr, /*cross=*/false);
  EXPECT_EQ(h.failed, 1u);
  EXPECT_EQ(h.rows[1].status, Status::kMissing);
  EXPECT_EQ(h.first_failure.rfind("'lr' ", 0), 0u) << h.first_failure;
}

// A verdict crosses a process boundary as its text (ddp-check's ranks): every status reads back
// as itself, and a text that is none of them reads back as nothing, not as a pass.
TEST(StatusTextTest, EveryStatusReadsBackAsItselfAndNothingElseReads) {
  for (int i = 0; i <= static_cast<int>(Status::kAllowed); ++i) {
    const auto s = static_cast<Status>(i);
    ASSERT_EQ(status_from_text(status_text(s)), s) << status_text(s);
  }
  EXPECT_EQ(status_from_text("held"), std::nullopt);  // law_status_text's word for a pass is not a status
  EXPECT_EQ(status_from_text("Pass"), std::nullopt);
  EXPECT_EQ(status_from_text(""), std::nullopt);
}

}  // namespace
}  // namespace trainproof
