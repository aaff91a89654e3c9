// CUDA tests: every scenario on the GPU with its invariants holding, and the raw-CUDA
// device check against the host. Each skips with its reason where it cannot run.
#include <torch/cuda.h>
#include <torch/torch.h>

#include <gtest/gtest.h>

#include "trainproof/runner/device_check.h"
#include "trainproof/runner/scenario.h"

namespace trainproof {
namespace {

// A macro, not a function: GTEST_SKIP returns from the enclosing function only.
#define TRAINPROOF_REQUIRE_GPU() \
  if (!torch::cuda::is_available()) GTEST_SKIP() << "CUDA not available"

TEST(DeviceCheckTest, DeviceConversionsEqualTheHosts) {
  if (!cuda_compiled_in()) GTEST_SKIP() << "raw-CUDA check not compiled in (no nvcc at configure time)";
  const auto dc = device_conversions();
  if (!dc) GTEST_SKIP() << "CUDA not available";
  EXPECT_EQ(dc->fp16_of_1e8, 0.0f);
  EXPECT_EQ(dc->bf16_of_1e8, static_cast<float>(c10::BFloat16(1e-8f)));
  EXPECT_EQ(dc->fp16_of_scaled, static_cast<float>(c10::Half(1e-8f * 65536.0f)));
  EXPECT_EQ(dc->fp16_max, 65504.0f);
  EXPECT_EQ(dc->fp16_smallest_normal, static_cast<float>(std::numeric_limits<c10::Half>::min()));
  EXPECT_EQ(dc->fp16_eps, static_cast<float>(std::numeric_limits<c10::Half>::epsilon()));
  EXPECT_EQ(dc->bf16_max, static_cast<float>(std::numeric_limits<c10::BFloat16>::max()));
  EXPECT_EQ(dc->bf16_eps, static_cast<float>(std::numeric_limits<c10::BFloat16>::epsilon()));
}

TEST(DeviceCheckTest, GpuFactsNameTheDevice) {
  TRAINPROOF_REQUIRE_GPU();
  if (!cuda_compiled_in()) GTEST_SKIP() << "raw-CUDA check not compiled in (no nvcc at configure time)";
  const auto f = gpu_facts();
  ASSERT_TRUE(f.has_value());
  EXPECT_FALSE(f->name.empty());
  EXPECT_GE(f->major, 3);
}

class CudaScenarioTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaScenarioTest, RunsWithInvariantsHolding) {
  TRAINPROOF_REQUIRE_GPU();
  Trace t;
  try {
    t = run_scenario(*Registry::instance().find(GetParam()), c10::Device("cuda"));
  } catch (const Skipped& s) {
    GTEST_SKIP() << s.what();
  }
  EXPECT_FALSE(t.series.empty());
  for (const auto& inv : t.invariants) EXPECT_TRUE(inv.held) << inv.name << ": " << inv.detail;
}

// bf16 on CUDA: on a GPU with native bfloat16 the two mixed-precision scenarios run both
// recipes, float16 with an enabled scaler and bfloat16 without, and record both.
TEST(CudaAmpRecipesTest, BothRecipesAreRecordedOnAmpereAndNewer) {
  TRAINPROOF_REQUIRE_GPU();
  const auto f = gpu_facts();
  if (!f || f->major < 8) GTEST_SKIP() << "no GPU with native bfloat16 (compute capability 8.0 or newer)";
  for (const auto& [name, series] : {std::pair{"autocast_dtypes", "loss"}, std::pair{"amp_loop", "loss_per_epoch"}}) {
    const Trace t = run_scenario(*Registry::instance().find(name), c10::Device("cuda"));
    EXPECT_NE(t.find(series), nullptr) << name;
    EXPECT_NE(t.find(std::string(series) + "_bf16"), nullptr) << name;
    for (const auto& inv : t.invariants) EXPECT_TRUE(inv.held) << name << ": " << inv.name << ": " << inv.detail;
  }
}

std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const auto& d : Registry::instance().all()) n.push_back(d.name);
  return n;
}
INSTANTIATE_TEST_SUITE_P(All, CudaScenarioTest, ::testing::ValuesIn(names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace trainproof
