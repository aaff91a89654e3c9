// Data-parallel runs across rank processes (Gloo; NCCL on GPUs): the result does not depend on the
// number of ranks (N = 1..4) beyond float64 rounding; a rank that skips the all-reduce is
// caught; a rank that dies or hangs ends the run with a message naming it.
#include <cstdlib>

#include <torch/cuda.h>
#include <torch/torch.h>

#include <gtest/gtest.h>

#include <map>

#include "tests/support/bad_input.h"
#include "tests/support/scoped_env.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/distributed/distributed.h"
#include "trainproof/distributed/rank_task.h"
#include "trainproof/training/checkpoint.h"

namespace trainproof {
namespace {

torch::Tensor data_parallel_grad(int world, uint64_t seed, bool uneven) {
  TempDir dir("ddp-test");
  launch_task(world, "grad", GradTaskOptions{.rule = "size", .uneven = uneven, .total = 60, .seed = seed}, dir.path(),
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
  // 5 s: a healthy rank finishes in under 1 s on a loaded core, so this test runs beside
  // others (waiting on the hung rank takes no core), and holds a slot for only that long.
  ScopedEnv timeout("TRAINPROOF_RANK_TIMEOUT_S", "5");
  try {
    data_parallel_grad(3, 0, false);
    FAIL() << "a hung rank went unnoticed";
  } catch (const BadInput& e) {
    // Every rank timed out; the one that hung is told from the two that waited for it.
    EXPECT_NE(std::string(e.what()).find("did not finish within 5 s"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(": rank(s) 2 hung before reaching the process group"), std::string::npos)
        << e.what();
  }
}

TEST(DistributedTest, ProgramThatIsNotTheCliRefusesToStartRanks) {
  // Without TRAINPROOF_BIN this test binary would re-execute itself as every rank.
  const char* env = std::getenv("TRAINPROOF_BIN");
  const std::string saved = env ? env : "";
  unsetenv("TRAINPROOF_BIN");
  TempDir dir("ddp-test");
  EXPECT_THROW(launch_task(2, "grad", GradTaskOptions{}, dir.path(), dir.path()), BadInput);
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
    launch_task(2, "grad", GradTaskOptions{}, dir.path(), dir.path(), {.backend = "nccl"});
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
    launch_task(world, "grad", GradTaskOptions{.rule = "size", .uneven = true, .total = 60, .seed = 0}, dir.path(),
                dir.path(), {.backend = "nccl"});
    EXPECT_TRUE(torch::allclose(Checkpoint::load(dir.path() / "rank0.tpck").tensor("grad64"), one, 1e-12, 1e-14))
        << "world " << world;
  }
}

// The launchers' environments, read without starting anything (torchrun_test.sh runs torchrun).
std::optional<LaunchEnv> env_of(const std::map<std::string, std::string>& vars) {
  return launch_env([&](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

TEST(LaunchEnvTest, ReadsTorchrunsVariables) {
  const auto e = env_of({{"RANK", "3"},
                         {"WORLD_SIZE", "4"},
                         {"LOCAL_RANK", "1"},
                         {"MASTER_ADDR", "node0"},
                         {"MASTER_PORT", "29500"},
                         {"TORCHELASTIC_USE_AGENT_STORE", "True"},
                         {"TORCHELASTIC_RESTART_COUNT", "1"},
                         {"TORCHELASTIC_MAX_RESTARTS", "2"}});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->launcher, "torchrun");
  EXPECT_EQ(e->rank, 3);
  EXPECT_EQ(e->world, 4);
  EXPECT_EQ(e->local_rank, 1);
  EXPECT_EQ(e->master_addr, "node0");
  EXPECT_EQ(e->master_port, 29500);
  EXPECT_TRUE(e->agent_store);
  EXPECT_EQ(e->restart_count, 1);
  EXPECT_EQ(e->max_restarts, 2);
}

TEST(LaunchEnvTest, ReadsSlurmsVariables) {
  const auto e = env_of({{"SLURM_PROCID", "5"},
                         {"SLURM_NTASKS", "8"},
                         {"SLURM_LOCALID", "1"},
                         {"MASTER_ADDR", "n1"},
                         {"MASTER_PORT", "1234"}});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->launcher, "slurm");
  EXPECT_EQ(e->rank, 5);
  EXPECT_EQ(e->world, 8);
  EXPECT_EQ(e->local_rank, 1);
  EXPECT_FALSE(e->agent_store);
  EXPECT_EQ(e->max_restarts, 0);
}

TEST(LaunchEnvTest, NoLauncherMeansNone) {
  EXPECT_FALSE(env_of({{"MASTER_ADDR", "x"}}).has_value());
}

TEST(LaunchEnvTest, AMalformedOrMissingVariableIsBadInputNamingIt) {
  const std::map<std::string, std::string> ok = {
      {"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "29500"}};
  auto with = [&](const std::string& k, const std::string& v) {
    auto m = ok;
    m[k] = v;
    return m;
  };
  auto without = [&](const std::string& k) {
    auto m = ok;
    m.erase(k);
    return m;
  };
  EXPECT_BAD_INPUT(env_of(with("RANK", "one")), "RANK=one: not an integer in [0, 1]");
  EXPECT_BAD_INPUT(env_of(with("RANK", "2")), "RANK=2: not an integer in [0, 1]");
  EXPECT_BAD_INPUT(env_of(with("MASTER_PORT", "70000")), "MASTER_PORT=70000");
  EXPECT_BAD_INPUT(env_of(without("WORLD_SIZE")), "WORLD_SIZE is not set");
  EXPECT_BAD_INPUT(env_of(without("MASTER_ADDR")), "MASTER_ADDR is not set");
  EXPECT_TRUE(env_of(ok).has_value());
}

TEST(LaunchEnvTest, DdpCheckOutsideALauncherIsBadInput) {
  for (const char* v : {"RANK", "WORLD_SIZE", "SLURM_PROCID"})
    if (std::getenv(v)) GTEST_SKIP() << v << " is set: this test runs outside a launcher";
  DdpCheckOptions o;
  o.run_dir = "x";
  EXPECT_BAD_INPUT(ddp_check(o), "neither RANK/WORLD_SIZE nor SLURM_PROCID");
}

}  // namespace
}  // namespace trainproof
