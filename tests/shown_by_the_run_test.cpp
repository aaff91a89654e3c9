// Verdicts shown by the run (src/check/saved_files.h, resume_findings.cpp): a save is whole only
// once the probe saw it return; the files a run saves at its end are held to the uninterrupted
// run's; a torn write is a finding only where a restart after a kill in it loaded what it wrote; a
// batch that departs is a lost position only where its samples' indices depart too.
#include <gtest/gtest.h>

#include "src/check/probe_findings.h"
#include "src/check/saved_files.h"
#include "trainproof/core/recorded_trace.h"

namespace trainproof {
namespace {

ProbeFileOp save_at(const std::string& path, int start, int64_t seq, bool dcp = false) {
  ProbeFileOp op;
  op.kind = "save";
  op.start = start;
  op.seq = seq;
  op.path = path;
  op.where = "train.py:40";
  op.checkpoint = true;
  op.dcp = dcp;
  return op;
}

ProbeFileOp load_at(const std::string& path, int start) {
  ProbeFileOp op;
  op.kind = "load";
  op.start = start;
  op.path = path;
  op.where = "train.py:20";
  return op;
}

ProbeFact saved(const std::string& path, int start, int64_t seq, const std::string& tensors = "{}",
                const std::string& rng = "[]", const std::string& where = "train.py:88") {
  ProbeFact f;
  f.fact = "saved";
  f.start = start;
  f.seq = seq;
  f.where = where;
  const std::string name = path.substr(path.find_last_of('/') + 1);
  f.data = {{"path", path}, {"in_run_dir", name}, {"tensors", tensors}, {"rng", rng}};
  return f;
}

ProbeStep step_of(int start, int64_t seq) {
  ProbeStep p;
  p.start = start;
  p.seq = seq;
  return p;
}

TEST(ShownByTheRunTest, ASaveIsWholeOnlyOnceTheProbeSawItReturn) {
  RecordedTrace t;
  t.starts = 1;
  t.file_ops = {save_at("/r/ckpt.pt.tmp", 1, 4)};
  // Negative: the record written before the save, and nothing after it (killed mid-write).
  EXPECT_FALSE(save_finished(t, t.file_ops[0]));
  EXPECT_EQ(first_finished_save(t, 1), nullptr);
  // Another path's, or another step's, `saved` says nothing of this one.
  t.facts = {saved("/r/other.pt", 1, 4), saved("/r/ckpt.pt.tmp", 1, 8)};
  EXPECT_FALSE(save_finished(t, t.file_ops[0]));
  t.facts.push_back(saved("/r/ckpt.pt.tmp", 1, 4));
  EXPECT_TRUE(save_finished(t, t.file_ops[0]));
  ASSERT_NE(first_finished_save(t, 1), nullptr);
  EXPECT_EQ(first_finished_save(t, 2), nullptr);  // not a save of the restart's
  // A DCP folder is whole once dcp.save returned (`dcp-saved`).
  RecordedTrace d;
  d.file_ops = {save_at("/r/step-4", 1, 4, /*dcp=*/true)};
  EXPECT_FALSE(save_finished(d, d.file_ops[0]));
  ProbeFact f;
  f.fact = "dcp-saved";
  f.start = 1;
  f.data = {{"path", "/r/step-4"}};
  d.facts = {f};
  EXPECT_TRUE(save_finished(d, d.file_ops[0]));
}

// A run of `steps` steps whose last start saves ema.pt at its end with these tensors.
RecordedTrace ending_with(const std::string& tensors, const std::string& rng = "[]", int starts = 1) {
  RecordedTrace t;
  t.starts = starts;
  for (int64_t s = 1; s <= 6; ++s) t.probe.push_back(step_of(starts, s));
  t.facts = {saved("/w/run/ema.pt", starts, 3, R"({"module.w": "0000000000000001"})"),  // before the end: not final
             saved("/w/run/ema.pt", starts, 6, tensors, rng)};
  return t;
}

TEST(ShownByTheRunTest, AFinalFileThatDiffersAfterARestartIsNamedWithItsKeys) {
  const RecordedTrace straight =
      ending_with(R"({"module.w": "00000000000000aa", "module.b": "00000000000000bb", "n_averaged": "01"})");
  const RecordedTrace resumed =
      ending_with(R"({"module.w": "00000000000000ac", "module.b": "00000000000000bb", "n_averaged": "02"})", "[]", 2);
  const auto d = final_file_difference(straight, resumed);
  ASSERT_TRUE(d.has_value());
  EXPECT_FALSE(d->rng_only);
  EXPECT_EQ(d->finding.id, "resume-carried-state-differs");
  EXPECT_FALSE(d->finding.advice);
  EXPECT_EQ(d->finding.where, "train.py:88");
  EXPECT_NE(d->detail.find("the final file ema.pt"), std::string::npos) << d->detail;
  EXPECT_NE(d->detail.find("2 of its 3 key(s) ('module.w', 'n_averaged')"), std::string::npos) << d->detail;
  // Negative: the same tensors at the end (the mid-run save that differs is not the final file).
  EXPECT_FALSE(final_file_difference(straight, ending_with(R"({"module.w": "00000000000000aa", "module.b": )"
                                                           R"("00000000000000bb", "n_averaged": "01"})",
                                                           "[]", 2))
                   .has_value());
  // Named at the checkpoint the restart resumed from (the last whole one of the start before it).
  RecordedTrace from_checkpoint = resumed;
  from_checkpoint.file_ops = {save_at("/w/run/ckpt.pt.tmp", 1, 4)};
  from_checkpoint.facts.push_back(saved("/w/run/ckpt.pt.tmp", 1, 4));
  const auto named = final_file_difference(straight, from_checkpoint);
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(named->finding.where, "train.py:40");
  EXPECT_NE(named->finding.detail.find("the checkpoint the restart resumed from (saved at train.py:40)"),
            std::string::npos)
      << named->finding.detail;
  // A file only one run saved at its end is held to nothing.
  RecordedTrace other = resumed;
  for (auto& f : other.facts) f.data["in_run_dir"] = "elsewhere.pt";
  EXPECT_FALSE(final_file_difference(straight, other).has_value());
}

// A loop whose steps draw from torch's RNG (its digest moves from step to step).
RecordedTrace drawing(RecordedTrace t) {
  for (auto& p : t.probe) p.digests["rng.torch"] = std::to_string(p.seq);
  return t;
}

TEST(ShownByTheRunTest, OnlyRngStatesThatDifferAtTheEndAreAdvice) {
  const RecordedTrace straight = drawing(ending_with(R"({"model": "aa", "rng": "01"})", R"(["rng"])"));
  const RecordedTrace resumed = drawing(ending_with(R"({"model": "aa", "rng": "02"})", R"(["rng"])", 2));
  const auto d = final_file_difference(straight, resumed);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->rng_only);
  EXPECT_TRUE(d->finding.advice);
  // Negative: a loop whose steps draw from no RNG (a restart's new DataLoader iterator drew its base
  // seed, and nothing used it): the same loop continued would draw from none either; nothing said.
  EXPECT_FALSE(final_file_difference(ending_with(R"({"model": "aa", "rng": "01"})", R"(["rng"])"),
                                     ending_with(R"({"model": "aa", "rng": "02"})", R"(["rng"])", 2))
                   .has_value());
  // Negative: a tensor that is not an RNG state differs too.
  const auto both = final_file_difference(straight, ending_with(R"({"model": "ab", "rng": "02"})", R"(["rng"])", 2));
  ASSERT_TRUE(both.has_value());
  EXPECT_FALSE(both->rng_only);
}

TEST(ShownByTheRunTest, ATornWriteIsAFindingOnlyWhereARestartAfterAKillInItLoadedIt) {
  // ckpt.pt written in place; the restart (start 2) loaded it.
  RecordedTrace t;
  t.probe = {step_of(1, 1), step_of(2, 1)};
  t.file_ops = {save_at("/r/ckpt.pt", 1, 4), load_at("/r/ckpt.pt", 2)};
  t.file_ops[0].existed = true;
  auto found = non_atomic_saves(t, "ckpt.pt");  // kill 1 landed in this write: shown
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].advice) << found[0].detail;
  found = non_atomic_saves(t, "");  // no kill in a write: the pattern alone, advice that says so
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].advice);
  EXPECT_NE(found[0].detail.find("Not shown by this run"), std::string::npos) << found[0].detail;
  found = non_atomic_saves(t, "log.txt");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].advice);
  EXPECT_NE(found[0].detail.find("in the write of log.txt"), std::string::npos) << found[0].detail;
  // Loaded only by the first start, not by a restart: not shown either.
  t.file_ops[1].start = 1;
  found = non_atomic_saves(t, "ckpt.pt");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].advice);
}

TEST(ShownByTheRunTest, AFileBesideADcpCheckpointTheRestartNeverTookIsNotShown) {
  // Each rank's RNG state saved (tmp, then replace) into step_N/ before dcp.save; the restart takes
  // only folders with .metadata: kill 1 in step_8's write, the restart loaded step_4.
  RecordedTrace t;
  t.probe = {step_of(1, 1), step_of(2, 1)};
  t.file_ops = {save_at("/r/step_4/rng-0.pt.tmp", 1, 4), save_at("/r/step_4", 1, 4, true),
                save_at("/r/step_8/rng-0.pt.tmp", 1, 8), load_at("/r/step_4/rng-0.pt", 2)};
  auto found = non_atomic_saves(t, "step_8/rng-0.pt.tmp");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].advice) << found[0].detail;
  EXPECT_NE(found[0].detail.find("Not shown by this run"), std::string::npos) << found[0].detail;
  // Positive: the restart took step_8/ itself, the folder kill 1 tore.
  t.file_ops.back().path = "/r/step_8/rng-0.pt";
  found = non_atomic_saves(t, "step_8/rng-0.pt.tmp");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].advice) << found[0].detail;
}

// A run of 8 steps, restarted at step 5, whose step 6 departs in `differing` (its digests made
// to differ there): the diagnosis of that step.
std::vector<Finding> diagnosis_of(const std::vector<std::string>& differing, bool order_seen) {
  RecordedTrace resumed;
  for (int64_t s = 5; s <= 8; ++s) {
    ProbeStep p = step_of(2, s - 4);
    p.where = "train.py:70";
    p.digests = {{"params", "p"}, {"optimizer", "o"}, {"batch", "b"}};
    if (order_seen) p.digests["order"] = "i";
    resumed.probe.push_back(p);
  }
  ResumeDeparture d;
  d.restart.start = 2;
  d.restart.step = 5;
  d.restart.how = "parameter digest";
  d.step = 6;
  d.differing = differing;
  return diagnose_resume(resumed, d);
}

TEST(ShownByTheRunTest, TheSameSamplesWithOtherValuesAreNotALostPosition) {
  // The batch departs, its samples' indices do not: workers or an augmentation seeded anew.
  auto found = diagnosis_of({"batch"}, /*order_seen=*/true);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-sample-values-differ");
  EXPECT_NE(found[0].detail.find("StatefulDataLoader"), std::string::npos) << found[0].detail;
  // Negative: the indices depart too (other samples), or were never seen: the data position.
  found = diagnosis_of({"batch", "order"}, true);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-missing-data-position");
  EXPECT_NE(found[0].detail.find("their indices in the dataset differ"), std::string::npos) << found[0].detail;
  found = diagnosis_of({"batch"}, /*order_seen=*/false);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-missing-data-position");
}

}  // namespace
}  // namespace trainproof
