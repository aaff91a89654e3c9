// Data-parallel runs across rank processes (Gloo; NCCL on GPUs): the result does not depend on the
// number of ranks (N = 1..4) beyond float64 rounding; a rank that skips the all-reduce is
// caught; a rank that dies or hangs ends the run with a message naming it.
#include <cstdlib>

#include <torch/cuda.h>
#include <torch/torch.h>

#include <gtest/gtest.h>

#include "tests/support/scoped_env.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/distributed/distributed.h"
#include "trainproof/training/checkpoint.h"

namespace trainproof {
namespace {

torch::Tensor data_parallel_grad(int world, uint64_t seed, bool uneven) {
  TempDir dir("ddp-test");
  launch_ranks(world,
               {"--task", "grad", "--rule", "size", "--total", "60", "--seed", std::to_string(seed), "--out",
                dir.path().string(), uneven ? "--uneven" : "--even"},
               dir.path());
  return Checkpoint::load(dir.path() / "rank0.tpck").tensor("grad64");
}

using testing::ScopedEnv;

TEST(DistributedTest, ResultDoesNotDependOnRankCount) {
  for (uint64_t seed : {0u, 7u})
    for (bool uneven : {false, true}) {
      const auto one = data_parallel_grad(1, seed, uneven);
      for (int world = 2; world <= 4; ++world)
        EXPECT_TRUE(torch::allclose(data_parallel_grad(world, seed, uneven), one, 1e-12, 1e-14))
            << "world " << world << " seed " << seed << (uneven ? " uneven" : " even");
    }
}

TEST(DistributedTest, RankThatSkipsTheAllReduceIsCaught) {
  const auto one = data_parallel_grad(1, 0, false);
  ScopedEnv fault("TRAINPROOF_INJECT_FAULT", "rank0-skips-allreduce");
  for (int world = 2; world <= 4; ++world)
    EXPECT_FALSE(torch::allclose(data_parallel_grad(world, 0, false), one, 1e-12, 1e-14)) << "world " << world;
}

TEST(DistributedTest, DeadRankEndsTheRunNamingIt) {
  ScopedEnv fault("TRAINPROOF_INJECT_FAULT", "rank1-dies");
  try {
    data_parallel_grad(3, 0, false);
    FAIL() << "a dead rank went unnoticed";
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1 of 3 was killed"), std::string::npos) << e.what();
  }
}

TEST(DistributedTest, HungRankIsKilledAfterTheTimeout) {
  ScopedEnv fault("TRAINPROOF_INJECT_FAULT", "rank2-hangs");
  ScopedEnv timeout("TRAINPROOF_RANK_TIMEOUT_S", "8");
  try {
    data_parallel_grad(3, 0, false);
    FAIL() << "a hung rank went unnoticed";
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("did not finish within 8 s"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2"), std::string::npos) << e.what();
  }
}

TEST(DistributedTest, ProgramThatIsNotTheCliRefusesToStartRanks) {
  // Without TRAINPROOF_BIN this test binary would re-execute itself as every rank.
  const char* env = std::getenv("TRAINPROOF_BIN");
  const std::string saved = env ? env : "";
  unsetenv("TRAINPROOF_BIN");
  TempDir dir("ddp-test");
  EXPECT_THROW(launch_ranks(2, {"--task", "grad", "--out", dir.path().string()}, dir.path()), BadInput);
  if (!saved.empty()) setenv("TRAINPROOF_BIN", saved.c_str(), 1);
}

TEST(DistributedTest, RankCountsFollowTheDevice) {
  using W = std::vector<int>;
  EXPECT_EQ(data_parallel_worlds(c10::Device("cpu"), 0), (W{2, 4}));
  EXPECT_EQ(data_parallel_worlds(c10::Device("cpu"), 8), (W{2, 4}));  // CPU ranks are processes, not GPUs
  EXPECT_EQ(data_parallel_worlds(c10::Device("cuda"), 1), (W{1}));    // one GPU: N=1
  EXPECT_EQ(data_parallel_worlds(c10::Device("cuda"), 3), (W{2}));    // NCCL: one rank per GPU
  EXPECT_EQ(data_parallel_worlds(c10::Device("cuda"), 8), (W{2, 4}));
  EXPECT_EQ(backend_for(c10::Device("cpu")), "gloo");
  EXPECT_EQ(backend_for(c10::Device("cuda")), "nccl");
}

TEST(DistributedTest, NcclRankWithoutAGpuFailsNamingTheRankAndTheReason) {
  if (torch::cuda::is_available()) GTEST_SKIP() << "this machine has a GPU: NCCL can run";
  const std::string why = nccl_unavailable_reason();
  ASSERT_FALSE(why.empty());
  TempDir dir("ddp-test");
  try {
    launch_ranks(2, {"--backend", "nccl", "--task", "grad", "--out", dir.path().string()}, dir.path());
    FAIL() << "NCCL ranks ran without a GPU";
  } catch (const BadInput& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("of 2 failed (exit 2)"), std::string::npos) << msg;
    EXPECT_NE(msg.find(why), std::string::npos) << msg;
  }
}

TEST(DistributedTest, NcclRanksAverageGradientsOnTheGpus) {
  if (!nccl_unavailable_reason().empty()) GTEST_SKIP() << nccl_unavailable_reason();
  const auto worlds = data_parallel_worlds(c10::Device("cuda"), static_cast<int>(torch::cuda::device_count()));
  const auto one = data_parallel_grad(1, 0, true);  // Gloo on CPU
  for (int world : worlds) {
    TempDir dir("ddp-test");
    launch_ranks(world,
                 {"--backend", "nccl", "--task", "grad", "--rule", "size", "--total", "60", "--seed", "0", "--out",
                  dir.path().string(), "--uneven"},
                 dir.path());
    EXPECT_TRUE(torch::allclose(Checkpoint::load(dir.path() / "rank0.tpck").tensor("grad64"), one, 1e-12, 1e-14))
        << "world " << world;
  }
}

}  // namespace
}  // namespace trainproof
