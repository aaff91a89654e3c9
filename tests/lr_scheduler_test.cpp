// The C++ schedulers reproduce PyTorch's Python schedulers bitwise, on reference curves
// PyTorch itself produced (tools/reference/scheduler_reference.py), and resume exactly
// from saved state.
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/test_name.h"
#include "trainproof/training/lr_curve.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"

namespace trainproof {
namespace {

LrCurveSpec spec_of(const std::string& kind, const nlohmann::json& a) {
  LrCurveSpec s;
  s.kind = kind;
  if (kind == "warmup-cosine" || kind == "warmup-linear") {
    s.lr = a["lr"];
    s.warmup = a["warmup"];
    s.total = a["total"];
  } else if (kind == "onecycle") {
    s.onecycle.max_lr = a["max_lr"];
    s.onecycle.total_steps = a["total_steps"];
    s.onecycle.pct_start = a["pct_start"];
    s.onecycle.anneal = a["anneal"] == "linear" ? OneCycleOptions::Anneal::kLinear : OneCycleOptions::Anneal::kCos;
    s.onecycle.div_factor = a["div_factor"];
    s.onecycle.final_div_factor = a["final_div_factor"];
    s.onecycle.three_phase = a["three_phase"];
  } else if (kind == "cosine") {
    s.lr = a["lr"];
    s.t_max = a["t_max"];
    s.eta_min = a["eta_min"];
    s.steps = a["steps"];
  } else if (kind == "step") {
    s.lr = a["lr"];
    s.step_size = a["step_size"];
    s.gamma = a["gamma"];
    s.steps = a["steps"];
  } else if (kind == "plateau") {
    s.lr = a["lr"];
    s.plateau.mode = a["mode"] == "max" ? PlateauOptions::Mode::kMax : PlateauOptions::Mode::kMin;
    s.plateau.threshold_mode =
        a["threshold_mode"] == "abs" ? PlateauOptions::ThresholdMode::kAbs : PlateauOptions::ThresholdMode::kRel;
    s.plateau.patience = a["patience"];
    s.plateau.factor = a["factor"];
    s.plateau.threshold = a["threshold"];
    s.plateau.cooldown = a["cooldown"];
    s.plateau.min_lr = a["min_lr"];
    s.plateau.eps = a["eps"];
    s.metrics = a["metrics"].get<std::vector<double>>();
  }
  return s;
}

// The reference table: one test per curve PyTorch produced (run from the source root).
constexpr const char* kReference = "tests/data/scheduler_reference.json";

std::vector<nlohmann::json> reference_cases() {
  std::ifstream in(kReference);
  if (!in) return {};
  const auto ref = nlohmann::json::parse(in);
  std::vector<nlohmann::json> cases;
  for (const auto& c : ref["cases"]) cases.push_back(c);
  return cases;
}

TEST(LrSchedulerTest, ReferenceTableIsThere) {
  EXPECT_GE(reference_cases().size(), 40u) << kReference << " missing or short (run from the source root)";
}

class ReferenceCurveTest : public ::testing::TestWithParam<nlohmann::json> {};

TEST_P(ReferenceCurveTest, MatchesPyTorchBitwise) {
  const auto& c = GetParam();
  const auto expected = c["lrs"].get<std::vector<double>>();
  const auto got = lr_curve(spec_of(c["kind"], c["args"]));
  ASSERT_EQ(got.size(), expected.size()) << c["args"].dump();
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &expected[i], sizeof(double)), 0)
        << c["args"].dump() << " step " << i << ": got " << got[i] << ", PyTorch " << expected[i];
}

INSTANTIATE_TEST_SUITE_P(PyTorch, ReferenceCurveTest, ::testing::ValuesIn(reference_cases()),
                         [](const ::testing::TestParamInfo<nlohmann::json>& info) {
                           return testing::test_name(info.param["kind"].get<std::string>() + "_" +
                                                     std::to_string(info.index));
                         });

TEST(LrSchedulerTest, DocumentValues) {
  LrCurveSpec s;
  s.kind = "warmup-cosine";
  s.lr = 1e-3;
  s.warmup = 100;
  s.total = 1000;
  const auto lr = lr_curve(s);
  EXPECT_EQ(fmt::format("{:.2e}", lr[0]), "1.00e-05");
  EXPECT_EQ(fmt::format("{:.2e}", lr[325]), "8.54e-04");
  EXPECT_EQ(fmt::format("{:.2e}", lr[999]), "3.05e-09");
}

// Save the scheduler (and optimizer) at step k, rebuild, load, continue: the same curve.
// With load_scheduler=false (the negative control) the resumed run restarts its schedule.
template <class Make>
bool resumes_identically(Make make, int64_t steps, int64_t k, bool load_scheduler) {
  std::vector<double> full;
  {
    torch::nn::Linear m(2, 1);
    AdamW opt(m->parameters(), torch::optim::AdamWOptions(0.1));
    auto sched = make(opt);
    for (int64_t i = 0; i < steps; ++i, sched->step()) full.push_back(sched->get_last_lr()[0]);
  }
  Checkpoint ck;
  {
    torch::nn::Linear m(2, 1);
    AdamW opt(m->parameters(), torch::optim::AdamWOptions(0.1));
    auto sched = make(opt);
    for (int64_t i = 0; i < k; ++i) sched->step();
    save_optimizer(ck, "opt", opt);
    sched->save(ck, "sched");
  }
  torch::nn::Linear m(2, 1);
  AdamW opt(m->parameters(), torch::optim::AdamWOptions(0.1));
  auto sched = make(opt);
  load_optimizer(ck, "opt", opt);
  if (load_scheduler) sched->load(ck, "sched");
  bool same = true;
  for (int64_t i = k; i < steps; ++i, sched->step()) same = same && sched->get_last_lr()[0] == full[i];
  return same;
}

TEST(LrSchedulerTest, EverySchedulerResumesFromSavedStateAndNotWithoutIt) {
  auto lambda = [](auto& o) { return std::make_unique<LambdaLR>(o, warmup_cosine(10, 50)); };
  auto cosine = [](auto& o) { return std::make_unique<CosineAnnealingLR>(o, 7, 1e-3); };
  auto step = [](auto& o) { return std::make_unique<StepLR>(o, 5, 0.5); };
  auto onecycle = [](auto& o) {
    return std::make_unique<OneCycleLR>(o, OneCycleOptions{.max_lr = 0.2, .total_steps = 60});
  };
  EXPECT_TRUE(resumes_identically(lambda, 50, 23, true));
  EXPECT_TRUE(resumes_identically(cosine, 40, 11, true));
  EXPECT_TRUE(resumes_identically(step, 30, 12, true));
  EXPECT_TRUE(resumes_identically(onecycle, 60, 31, true));
  EXPECT_FALSE(resumes_identically(lambda, 50, 23, false));
  EXPECT_FALSE(resumes_identically(cosine, 40, 11, false));
  EXPECT_FALSE(resumes_identically(step, 30, 12, false));
  EXPECT_FALSE(resumes_identically(onecycle, 60, 31, false));
}

TEST(LrSchedulerTest, PlateauResumesFromSavedState) {
  const std::vector<double> metrics = {0.9, 0.7, 0.6, 0.61, 0.6, 0.62, 0.55, 0.56, 0.57, 0.58, 0.56, 0.6, 0.61, 0.62};
  auto make = [](auto& opt) {
    return ReduceLROnPlateau(opt, PlateauOptions{.factor = 0.5, .patience = 2, .cooldown = 1});
  };
  torch::nn::Linear m(2, 1);
  AdamW a(m->parameters(), torch::optim::AdamWOptions(1e-3));
  auto full = make(a);
  std::vector<double> expected;
  for (double v : metrics) expected.push_back((full.step(v), full.get_last_lr()[0]));
  AdamW b(m->parameters(), torch::optim::AdamWOptions(1e-3));
  auto first = make(b);
  for (size_t i = 0; i < 7; ++i) first.step(metrics[i]);
  Checkpoint ck;
  save_optimizer(ck, "opt", b);
  first.save(ck, "sched");
  AdamW c(m->parameters(), torch::optim::AdamWOptions(1e-3));
  auto resumed = make(c);
  load_optimizer(ck, "opt", c);
  resumed.load(ck, "sched");
  for (size_t i = 7; i < metrics.size(); ++i) {
    resumed.step(metrics[i]);
    EXPECT_EQ(resumed.get_last_lr()[0], expected[i]) << "epoch " << i;
  }
}

TEST(LrSchedulerTest, BadConfigurationsAreRejectedWithTheValue) {
  LrCurveSpec s;
  s.kind = "cosine";
  s.t_max = 0;
  s.steps = 3;
  try {
    lr_curve(s);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("T_max must be > 0, got 0"), std::string::npos) << e.what();
  }
  s.kind = "sawtooth";
  EXPECT_THROW(lr_curve(s), std::invalid_argument);
}

}  // namespace
}  // namespace trainproof
