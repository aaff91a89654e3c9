// The law of a resume at another world size (src/check/reshard.h), judged from records alone: a
// restart whose ranks' sums add up to the checkpoint's state and the uninterrupted run's samples
// holds; one whose optimizer state, samples or loss depart breaks it, naming the state, the step
// and the rank that took another step's samples; a kill before any save is NOT TESTED.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "src/check/reshard.h"

namespace trainproof {
namespace {

// A step of one process: its parts of the sums, its samples, its loss and rate.
// Step n (the uninterrupted run's number) is record `seq` of its start.
ProbeStep part(int launch, int64_t seq, int64_t n, uint64_t params, uint64_t optimizer, std::vector<uint64_t> samples) {
  ProbeStep p;
  p.launch = p.start = launch;
  p.seq = seq;
  p.values = {{"loss", 0.5 + 0.01 * static_cast<double>(n)}, {"lr", 0.01 * static_cast<double>(n)}};
  p.where = "loop.py:40";
  uint64_t batch = 0;
  for (uint64_t s : samples) batch += s;
  p.sums = {{"params", params}, {"optimizer", optimizer}, {"batch", batch}};
  p.samples = std::move(samples);
  return p;
}

// Step n's state, as the whole of it sums (kept apart from any other step's), and its samples:
// four a step, n*10+1 .. n*10+4.
uint64_t params_at(int64_t n) {
  return 1000 + static_cast<uint64_t>(n);
}
uint64_t optim_at(int64_t n) {
  return 2000 + static_cast<uint64_t>(n);
}
std::vector<uint64_t> samples_of(int64_t n, size_t from, size_t count) {
  std::vector<uint64_t> out;
  for (size_t i = from; i < from + count; ++i) out.push_back(static_cast<uint64_t>(n) * 10 + 1 + i);
  return out;
}

// An uninterrupted run of 6 steps on 2 ranks: each holds half of every sum and two samples.
ProcessRun two_ranks() {
  ProcessRun run;
  run.primary = "rank0";
  for (int r = 0; r < 2; ++r) {
    RecordedTrace& t = run.traces["rank" + std::to_string(r)];
    t.process = "rank" + std::to_string(r);
    for (int64_t n = 1; n <= 6; ++n) {
      const uint64_t half_p = params_at(n) / 2, half_o = optim_at(n) / 2;
      t.probe.push_back(part(1, n, n, r == 0 ? half_p : params_at(n) - half_p, r == 0 ? half_o : optim_at(n) - half_o,
                             samples_of(n, 2 * static_cast<size_t>(r), 2)));
    }
  }
  return run;
}

// The same run killed after step 4 (a save after step 3 recorded), restarted on 1 process at step
// `resumed_at` with the state of `state_of` and the samples of `samples_at` (each step's, from there).
ProcessRun one_rank_restart(int64_t resumed_at, int64_t state_of, int64_t samples_at, uint64_t optim_off = 0) {
  ProcessRun run = two_ranks();
  for (auto& [who, t] : run.traces) t.probe.resize(4);
  ProbeFileOp save;
  save.kind = "save";
  save.start = 1;
  save.seq = 3;
  save.path = "/r/step-3";
  save.dcp = true;
  run.traces["rank0"].file_ops.push_back(save);
  ProbeFact whole;  // dcp.save returned: the checkpoint is whole
  whole.fact = "dcp-saved";
  whole.start = 1;
  whole.seq = 3;
  whole.data = {{"path", "/r/step-3"}};
  run.traces["rank0"].facts.push_back(whole);
  RecordedTrace& t = run.traces["rank0"];
  for (int64_t n = resumed_at; n <= 6; ++n) {
    const int64_t seq = n - resumed_at + 1, state = n == resumed_at ? state_of : n;
    const int64_t data = samples_at + (n - resumed_at);
    t.probe.push_back(
        part(2, seq, n, params_at(state), optim_at(state) + (n == resumed_at ? optim_off : 0), samples_of(data, 0, 4)));
  }
  return run;
}

TEST(ReshardTest, ARestartOnOneRankFromTheCheckpointsStateAndSamplesHolds) {
  const auto v = judge_reshard(two_ranks(), one_rank_restart(4, 4, 4), 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kPass) << v.law.detail;
  EXPECT_TRUE(v.findings.empty());
  EXPECT_NE(v.law.detail.find("restart 1 resumed at step 4 on 1 process(es)"), std::string::npos) << v.law.detail;
}

TEST(ReshardTest, AnOptimizerStateThatIsNotTheCheckpointsIsNamed) {
  const auto v = judge_reshard(two_ranks(), one_rank_restart(4, 4, 4, /*optim_off=*/7), 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kBroken);
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].id, "reshard-state-differs");
  EXPECT_EQ(v.findings[0].step, 4);
  EXPECT_NE(v.findings[0].detail.find("the optimizer state it trains from"), std::string::npos) << v.findings[0].detail;
}

TEST(ReshardTest, ParametersOfNoStepAreAStateThatDidNotLoad) {
  ProcessRun run = one_rank_restart(4, 4, 4);
  run.traces["rank0"].probe[4].sums["params"] = 99;  // the restart's first step
  run.traces["rank0"].probe[4].opt_step = 3;
  const auto v = judge_reshard(two_ranks(), run, 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kBroken);
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].id, "reshard-state-differs");
  EXPECT_NE(v.findings[0].detail.find("the parameters it trains from are not the checkpoint's"), std::string::npos)
      << v.findings[0].detail;
}

TEST(ReshardTest, SamplesOfAnEarlierStepAreRepeatedAndTheRankIsNamed) {
  const auto v = judge_reshard(two_ranks(), one_rank_restart(4, 4, 2), 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kBroken);
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].id, "reshard-samples-differ");
  EXPECT_EQ(v.findings[0].step, 4);
  EXPECT_NE(v.findings[0].detail.find("rank 0 first: it took 4 samples of step 2 (repeated)"), std::string::npos)
      << v.findings[0].detail;
  EXPECT_NE(v.findings[0].detail.find("4 of the step's 4 samples went untrained"), std::string::npos);
}

TEST(ReshardTest, ALossBeyondTheBandBreaksTheLawALossWithinItDoesNot) {
  ProcessRun run = one_rank_restart(4, 4, 4);
  run.traces["rank0"].probe[5].values["loss"] *= 1 + kReshardBand / 2;  // step 5: within the band
  EXPECT_EQ(judge_reshard(two_ranks(), run, 2, 1, {}).law.status, Status::kPass);
  run.traces["rank0"].probe[5].values["loss"] *= 1 + 2 * kReshardBand;
  const auto v = judge_reshard(two_ranks(), run, 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kBroken);
  EXPECT_NE(v.law.detail.find("at step 5 the loss"), std::string::npos) << v.law.detail;
}

TEST(ReshardTest, ARestartFromTheFirstStepIsBrokenOnlyWhereACheckpointWasWhole) {
  EXPECT_EQ(judge_reshard(two_ranks(), one_rank_restart(1, 1, 1), 2, 1, {}).law.status, Status::kBroken);
  ProcessRun unsaved = one_rank_restart(1, 1, 1);
  unsaved.traces["rank0"].file_ops.clear();
  EXPECT_EQ(judge_reshard(two_ranks(), unsaved, 2, 1, {}).law.status, Status::kNotTested);
  // A save that began and never returned (killed in its write) is no checkpoint to resume from.
  ProcessRun torn = one_rank_restart(1, 1, 1);
  torn.traces["rank0"].facts.clear();
  const auto v = judge_reshard(two_ranks(), torn, 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kNotTested);
  EXPECT_NE(v.law.detail.find("before any checkpoint was whole"), std::string::npos) << v.law.detail;
}

// Two tensor-parallel ranks fed one replicated batch (each the step's 4 samples, the same digest),
// killed and restarted on 1: the batch counted once, as the restart's one rank trains it.
ProcessRun replicated(ProcessRun run) {
  for (auto& [who, t] : run.traces)
    for (auto& p : t.probe) {
      if (p.launch != 1) continue;  // the restart's one rank trains the whole batch already
      p.samples = samples_of(p.seq, 0, 4);
      uint64_t batch = 0;
      for (uint64_t s : p.samples) batch += s;
      p.sums["batch"] = batch;
      p.digests["batch"] = fmt::format("{:016x}", batch);
    }
  return run;
}

TEST(ReshardTest, ReplicasOfOneBatchAreCountedOnceShardsEach) {
  const auto v = judge_reshard(replicated(two_ranks()), replicated(one_rank_restart(4, 4, 4)), 2, 1, {});
  EXPECT_EQ(v.law.status, Status::kPass) << v.law.detail;
  EXPECT_TRUE(v.findings.empty());
  // Negative: the same samples on both ranks, but their digests differ (shards that happen to sum
  // alike are not replicas): counted twice, and the restart's one batch is half of it.
  ProcessRun straight = replicated(two_ranks());
  for (auto& p : straight.traces["rank1"].probe) p.digests["batch"] += "-rank1";
  const auto w = judge_reshard(straight, replicated(one_rank_restart(4, 4, 4)), 2, 1, {});
  EXPECT_EQ(w.law.status, Status::kBroken);
  ASSERT_EQ(w.findings.size(), 1u);
  EXPECT_EQ(w.findings[0].id, "reshard-samples-differ");
}

TEST(ReshardTest, ARunThatRecordedNoSumsIsNotTested) {
  ProcessRun straight = two_ranks();
  for (auto& [who, t] : straight.traces)
    for (auto& p : t.probe) p.sums.clear();
  EXPECT_EQ(judge_reshard(straight, one_rank_restart(4, 4, 4), 2, 1, {}).law.status, Status::kNotTested);
}

}  // namespace
}  // namespace trainproof
