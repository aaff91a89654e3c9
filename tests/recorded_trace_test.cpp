// The recorded-trace format from the C++ side: the Recorder and the reader agree bit for
// bit; a torn last record is ignored, a damaged earlier one is bad input naming the file;
// a restart drops a torn tail and appends; the reader's series are the trace model's. And the
// op a restart parts at, from the probe's op records (src/check/probe_findings.h).
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "src/check/probe_findings.h"
#include "tests/support/bad_input.h"
#include "trainproof/core/hash.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void spit(const fs::path& p, const std::string& s) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << s;
}

fs::path write_three_steps(const TempDir& dir) {
  const fs::path p = dir.path() / "trace";
  Recorder rec(p);
  for (int64_t s = 1; s <= 3; ++s) rec.log(s, {{"loss", 1.0 / 3.0 / static_cast<double>(s)}, {"lr", 1e-3}});
  rec.param("w", {0.1f, -2.5e-8f, std::numeric_limits<float>::denorm_min()}, {3});
  return p;
}

TEST(RecordedTraceTest, RoundTripsBitForBit) {
  TempDir dir("rt");
  const auto r = read_recorded_trace(write_three_steps(dir));
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_EQ(r.steps.at(3).at("loss"), 1.0 / 3.0 / 3.0);
  ASSERT_EQ(r.params.at("w").size(), 3u);
  EXPECT_EQ(r.params.at("w")[2], std::numeric_limits<float>::denorm_min());
  EXPECT_FALSE(r.torn_tail);
  const Trace t = to_trace(r);
  ASSERT_NE(t.find("loss"), nullptr);
  ASSERT_NE(t.find("param.w"), nullptr);
  EXPECT_EQ(t.find("step")->ints, (std::vector<int64_t>{1, 2, 3}));
}

TEST(RecordedTraceTest, ATornLastRecordIsIgnored) {
  TempDir dir("rt");
  const fs::path p = write_three_steps(dir);
  const std::string full = slurp(p);
  for (size_t cut : {1, 9, 30}) {
    spit(p, full.substr(0, full.size() - cut));
    const auto r = read_recorded_trace(p);
    EXPECT_TRUE(r.torn_tail) << cut;
    EXPECT_EQ(r.steps.size(), 3u);
    EXPECT_EQ(r.params.count("w"), 0u);
  }
}

TEST(RecordedTraceTest, ADamagedEarlierRecordIsBadInputNamingTheFile) {
  TempDir dir("rt");
  const fs::path p = write_three_steps(dir);
  std::string data = slurp(p);
  data[std::string("TPTRACE 1\n").size() + 10] ^= 1;
  spit(p, data);
  EXPECT_BAD_INPUT(read_recorded_trace(p), p.string() + ": record 1 is damaged");
  spit(p, "not a trace\n");
  EXPECT_BAD_INPUT(read_recorded_trace(p), "not a trainproof trace");
  EXPECT_BAD_INPUT(read_recorded_trace(dir.path() / "absent"), "the command recorded nothing");
}

TEST(RecordedTraceTest, ARestartDropsATornTailAndAppends) {
  TempDir dir("rt");
  const fs::path p = write_three_steps(dir);
  const std::string full = slurp(p);
  spit(p, full.substr(0, full.size() - 5));
  const size_t resume_at = complete_size(p);
  {
    Recorder rec(p);
    rec.log(3, {{"loss", 0.5}});  // re-done after its checkpoint: the last record counts
    rec.log(4, {{"loss", 0.25}});
  }
  const auto r = read_recorded_trace(p);
  EXPECT_FALSE(r.torn_tail);
  EXPECT_EQ(r.steps.at(3).at("loss"), 0.5);
  EXPECT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(logged_steps_from(p, resume_at), (std::vector<int64_t>{3, 4}));
}

// check polls a run's trace every few milliseconds: the tally counts the steps as the reader
// does, reading only what was appended. A record half written counts once whole; a trace that
// shrank (a new run) is read again. The control that it reads no byte twice: a record it has
// read, damaged in place afterwards, changes nothing (the reader would refuse the file).
TEST(RecordedTraceTest, TheStepTallyReadsOnlyWhatWasAppended) {
  TempDir dir("rt");
  const fs::path p = write_three_steps(dir);
  StepTally tally(p);
  EXPECT_EQ(tally.now(), 3u);
  EXPECT_EQ(tally.read_up_to(), fs::file_size(p));
  const std::string record = [] {
    const std::string payload = R"({"kind":"log","step":4,"values":{"loss":0.5}})";
    return fmt::format("{}\t{:016x}\n", payload, fnv1a64(payload));
  }();
  std::string data = slurp(p);
  spit(p, data + record.substr(0, 10));  // half written
  EXPECT_EQ(tally.now(), 3u);
  data[std::string("TPTRACE 1\n").size() + 10] ^= 1;  // damage a record already read
  spit(p, data + record);
  EXPECT_EQ(tally.now(), 4u);
  EXPECT_THROW(read_recorded_trace(p), BadInput);

  // A probe-only trace (a script the probe records): its steps by the optimizer's counter.
  const std::string probe = [](int64_t seq) {
    const std::string payload = fmt::format(R"({{"kind":"probe","seq":{},"values":{{}},"digests":{{}}}})", seq);
    return fmt::format("{}\t{:016x}\n", payload, fnv1a64(payload));
  }(1);
  spit(p, "TPTRACE 1\n" + probe);  // shorter: a new trace
  EXPECT_EQ(tally.now(), 1u);
  EXPECT_EQ(read_recorded_trace(p).steps.size(), 1u);
}

// Every process writes its own trace: the run's file (the command's own process, or rank 0)
// and `<file>.<identity>` beside it; each is read under the identity its start record names.
TEST(RecordedTraceTest, EachProcessOfARunIsReadFromItsOwnFile) {
  const TempDir dir("trace");
  const fs::path main = dir.path() / "run.trace";
  const auto trace = [](const std::string& process, int steps) {
    std::string out = "TPTRACE 1\n";
    const auto record = [&](const std::string& json) {
      out += json + "\t" + fmt::format("{:016x}", fnv1a64(json)) + "\n";
    };
    record(fmt::format(R"({{"argv":[],"kind":"start","pid":1,"process":"{}"}})", process));
    for (int s = 1; s <= steps; ++s)
      record(fmt::format(R"({{"digests":{{}},"kind":"probe","opt_step":null,"seq":{},"values":{{}},"where":""}})", s));
    return out;
  };
  spit(main, trace("rank0", 3));
  spit(dir.path() / "run.trace.rank1", trace("rank1", 4));
  spit(dir.path() / "other.trace.rank1", trace("rank1", 5));  // another run's: not this one's
  const auto all = read_process_traces(main);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all.at("rank0").steps.size(), 3u);
  EXPECT_EQ(all.at("rank1").steps.size(), 4u);
  EXPECT_TRUE(read_process_traces(dir.path() / "none.trace").empty());
}

TEST(RecordedTraceTest, WithoutTheVariableTheRecorderIsANoOp) {
  unsetenv("TRAINPROOF_TRACE");
  Recorder rec;
  EXPECT_FALSE(rec.active());
  rec.log(1, {{"loss", 1.0}});  // nothing to write to, and no error
}

// After a restart the probe's op records of the departing step are compared with the
// uninterrupted run's, aligned at their ends: the restart's begin with its start (building the
// model, loading the checkpoint), the uninterrupted run's with the previous step's update.
ProbeOp op(const std::string& name, const std::string& in, const std::string& out, const std::string& where = "") {
  return ProbeOp{0, 0, name, in, out, where};
}

TEST(ProbeFindingsTest, AfterARestartTheFirstOpWithEqualInputsAndDifferentOutputsIsNamed) {
  const std::vector<ProbeOp> restart = {op("aten::uniform_", "a", "b"),
                                        op("aten::copy_", "c", "d"),
                                        op("aten::empty", "e", "garbage-1"),
                                        op("aten::mm", "x", "y"),
                                        op("aten::randn", "size", "noise-1", "train.py:49"),
                                        op("aten::add", "y noise-1", "z-1", "train.py:49")};
  std::vector<ProbeOp> straight = {op("aten::add_", "p", "q"), op("aten::empty", "e", "garbage-2"),
                                   op("aten::mm", "x", "y"), op("aten::randn", "size", "noise-2", "train.py:49"),
                                   op("aten::add", "y noise-2", "z-2", "train.py:49")};
  const auto found = parting_op_after_restart(restart, straight);
  ASSERT_TRUE(found);  // not aten::empty (uninitialized), not aten::add (its inputs differ)
  EXPECT_EQ(found->op.op, "aten::randn");
  EXPECT_EQ(found->op.where, "train.py:49");
  EXPECT_NE(found->meaning.find("get_state()"), std::string::npos) << found->meaning;

  // The same step with the generator's state restored: nothing parts.
  straight[3].out = "noise-1";
  straight[4] = restart[5];
  EXPECT_FALSE(parting_op_after_restart(restart, straight));
  // An op only one side ran ends the common tail: nothing before it is compared.
  straight[3].out = "noise-2";
  straight.insert(straight.begin() + 4, op("aten::clone", "noise-2", "noise-2"));
  EXPECT_FALSE(parting_op_after_restart(restart, straight));
}

// A probe step of start `start`, its `seq`th, with these parameters and a torch RNG state.
ProbeStep step_of(int start, int64_t seq, const std::string& params, const std::string& rng = "r") {
  ProbeStep p;
  p.start = start;
  p.seq = seq;
  p.digests = {{"params", params}, {"rng.torch", rng}, {"rng.numpy", "n"}, {"scheduler", "s"}};
  return p;
}

// Restart 1 departs (its RNG not restored) and saves; restart 2 loads that checkpoint. Its
// parameters are no step of the uninterrupted run's but one of restart 1's: it resumed there,
// not "at step 1" by the digests that never change. And a restart that found no checkpoint is
// said to have begun again.
TEST(ProbeFindingsTest, ARestartIsAlignedWithTheEarlierRestartWhoseCheckpointItLoaded) {
  RecordedTrace straight, resumed;
  for (int64_t s = 1; s <= 30; ++s) straight.probe.push_back(step_of(1, s, fmt::format("p{}", s), "r0"));
  for (int64_t s = 1; s <= 15; ++s) resumed.probe.push_back(step_of(1, s, fmt::format("p{}", s), "r0"));
  // Restart 1 resumes at step 11 (the checkpoint of step 10), then departs at its second step.
  resumed.probe.push_back(step_of(2, 1, "p11", "r0"));
  for (int64_t s = 2; s <= 12; ++s) resumed.probe.push_back(step_of(2, s, fmt::format("q{}", s + 10)));
  // Restart 2 loads the checkpoint restart 1 wrote after step 20: the parameters before 21.
  resumed.probe.push_back(step_of(3, 1, "q21", "r0"));
  // Restart 3 finds no checkpoint: the initial parameters.
  resumed.probe.push_back(step_of(4, 1, "p1", "r0"));
  const auto a = align_restarts(straight, resumed);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].step, 11);
  EXPECT_EQ(a[0].how, "parameter digest");
  EXPECT_EQ(a[1].step, 21);
  EXPECT_NE(a[1].how.find("a step of restart 1: it loaded a checkpoint that restart wrote"), std::string::npos)
      << a[1].how;
  EXPECT_EQ(a[2].step, 1);
  EXPECT_NE(a[2].how.find("the initial parameters, trained again from the start"), std::string::npos) << a[2].how;

  // The negative control: parameters nobody had stay unplaced by content (the old fallback).
  resumed.probe[resumed.probe.size() - 2].digests["params"] = "nowhere";
  EXPECT_EQ(align_restarts(straight, resumed)[1].how.find("parameter digest"), std::string::npos);
}

// A restart that loads the model but not the optimizer (nor the RNGs): its optimizer state is
// empty and its RNG freshly seeded, as at step 1, and its batch is step 1's; only its parameters
// are the step it resumed at. It is no restart from step 1, whose parameters are the initial
// ones (nanoGPT with its optimizer restore deleted was named "at step 1"); the control: with
// the initial parameters too, it began again.
TEST(ProbeFindingsTest, TheLoadedParametersPlaceARestartOverAFreshOptimizerAndRng) {
  RecordedTrace straight, resumed;
  const auto with = [](ProbeStep p, const std::string& optimizer, const std::string& batch) {
    p.digests["optimizer"] = optimizer;
    p.digests["batch"] = batch;
    return p;
  };
  const auto at = [&](int start, int64_t seq, int64_t step) {
    return with(step_of(start, seq, fmt::format("p{}", step), fmt::format("r{}", step)),
                step == 1 ? "empty" : fmt::format("o{}", step), fmt::format("b{}", step));
  };
  for (int64_t s = 1; s <= 30; ++s) straight.probe.push_back(at(1, s, s));
  for (int64_t s = 1; s <= 15; ++s) resumed.probe.push_back(at(1, s, s));
  resumed.probe.push_back(with(step_of(2, 1, "p11", "r1"), "empty", "b1"));  // step 11's model, step 1's rest
  auto a = align_restarts(straight, resumed);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].step, 11);
  EXPECT_EQ(a[0].how, "parameter digest");
  const auto d = first_departure(straight, resumed, a);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->step, 11);
  EXPECT_NE(std::find(d->differing.begin(), d->differing.end(), "optimizer"), d->differing.end());

  resumed.probe.back().digests["params"] = "p1";  // the control: the initial model too, it began again
  a = align_restarts(straight, resumed);
  EXPECT_EQ(a[0].step, 1);
  EXPECT_NE(a[0].how.find("the initial parameters, trained again from the start"), std::string::npos) << a[0].how;
}

// A restart that skips the batches it had seen but loads nothing (accelerate's load_state()
// deleted): the initial parameters, optimizer and RNGs on step 9's batch. Aligned with step 1 by
// its state, it departs there in the batch alone; that is no lost data position but a checkpoint
// not loaded. The control: the first batch too, it began again and departs nowhere.
TEST(ProbeFindingsTest, TheInitialStateOnALaterBatchIsACheckpointNotLoaded) {
  RecordedTrace straight, resumed;
  const auto at = [&](int start, int64_t seq, int64_t step, int64_t batch) {
    ProbeStep p = step_of(start, seq, fmt::format("p{}", step), fmt::format("r{}", step));
    p.digests["optimizer"] = step == 1 ? "empty" : fmt::format("o{}", step);
    p.digests["batch"] = fmt::format("b{}", batch);
    return p;
  };
  for (int64_t s = 1; s <= 16; ++s) straight.probe.push_back(at(1, s, s, s));
  for (int64_t s = 1; s <= 10; ++s) resumed.probe.push_back(at(1, s, s, s));
  resumed.probe.push_back(at(2, 1, 1, 9));  // the state of step 1, the batch of step 9
  const auto a = align_restarts(straight, resumed);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].step, 1);
  EXPECT_TRUE(a[0].initial);
  const auto d = first_departure(straight, resumed, a);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->differing, std::vector<std::string>{"batch"});
  const auto found = diagnose_resume(resumed, *d);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-params-differ");
  EXPECT_NE(found[0].detail.find("loaded nothing of the checkpoint"), std::string::npos) << found[0].detail;

  resumed.probe.back().digests["batch"] = "b1";  // the control: the first batch, it began again
  EXPECT_FALSE(first_departure(straight, resumed, align_restarts(straight, resumed)).has_value());
}

// A restart whose every digest of the state agrees with the uninterrupted run's, yet whose step
// values depart (a generator of the script's own that the checkpoint does not save): named as
// such, not as a missing state. The quick form of CheckFirstOpTest.unsaved-generator (nightly),
// which also reruns the step with op-level digests. The control: equal values depart nowhere.
TEST(ProbeFindingsTest, EveryDigestEqualWhileTheValuesDifferIsNamedAsSuch) {
  RecordedTrace straight, resumed;
  const auto with_loss = [](ProbeStep p, double loss) {
    p.values = {{"loss", loss}};
    return p;
  };
  for (int64_t s = 1; s <= 20; ++s)
    straight.probe.push_back(with_loss(step_of(1, s, fmt::format("p{}", s), "r0"), 1.0 / s));
  for (int64_t s = 1; s <= 12; ++s)
    resumed.probe.push_back(with_loss(step_of(1, s, fmt::format("p{}", s), "r0"), 1.0 / s));
  for (int64_t s = 11; s <= 20; ++s)  // restart 1 resumes at step 11; its third step's loss departs
    resumed.probe.push_back(with_loss(step_of(2, s - 10, fmt::format("p{}", s), "r0"), s == 13 ? 0.5 : 1.0 / s));
  const auto restarts = align_restarts(straight, resumed);
  ASSERT_EQ(restarts.size(), 1u);
  EXPECT_EQ(restarts[0].step, 11);
  const auto d = first_departure(straight, resumed, restarts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->step, 13);
  EXPECT_TRUE(d->differing.empty());
  const auto found = diagnose_resume(resumed, *d);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-state-equal-values-differ");
  EXPECT_NE(found[0].detail.find("every digest of the state equal, the step's values differ"), std::string::npos)
      << found[0].detail;

  resumed.probe[12 + 2].values["loss"] = 1.0 / 13;  // the control: the values agree too
  EXPECT_FALSE(first_departure(straight, resumed, align_restarts(straight, resumed)).has_value());
}

// The stacks teams train with write a checkpoint as a folder of files: what it holds is judged
// over the files saved together, not one torch.save.
ProbeFileOp save_of(const std::string& path, int64_t seq, std::vector<std::string> holds, bool checkpoint = true) {
  ProbeFileOp op;
  op.kind = "save";
  op.start = 1;
  op.seq = seq;
  op.path = path;
  op.where = "train.py:9";
  op.checkpoint = checkpoint;
  op.holds = std::move(holds);
  op.needs = {"optimizer", "step", "scheduler", "rng"};
  return op;
}

TEST(ProbeFindingsTest, ACheckpointFolderHoldsWhatItsFilesHoldAndTheStepItIsNamedBy) {
  RecordedTrace t;
  t.file_ops = {save_of("/r/checkpoint-8/optimizer.pt", 8, {"optimizer"}),
                save_of("/r/checkpoint-8/scheduler.pt", 8, {"scheduler"}),
                save_of("/r/checkpoint-8/rng_state.pth", 8, {"rng"})};
  EXPECT_EQ(checkpoint_holds(t, t.file_ops[0]), (std::set<std::string>{"optimizer", "scheduler", "rng", "step"}));
  // Negative: files of another step or another folder are not the same checkpoint, and a folder
  // whose name holds another number (or the number inside a longer one) does not name the step.
  RecordedTrace apart;
  apart.file_ops = {save_of("/r/checkpoint-18/optimizer.pt", 8, {"optimizer"}),
                    save_of("/r/checkpoint-18/scheduler.pt", 16, {"scheduler"}),
                    save_of("/r/other/rng_state.pth", 8, {"rng"})};
  EXPECT_EQ(checkpoint_holds(apart, apart.file_ops[0]), (std::set<std::string>{"optimizer"}));
}

ProbeStep step_of(int start, int64_t seq) {
  ProbeStep p;
  p.start = start;
  p.seq = seq;
  return p;
}

// Exactly one finding, checkpoint-missing-state, saying what the checkpoint lacks.
void expect_missing_state(const std::vector<Finding>& found, const std::string& lacks) {
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "checkpoint-missing-state");
  EXPECT_NE(found[0].detail.find(lacks), std::string::npos) << found[0].detail;
}

TEST(ProbeFindingsTest, AFolderCheckpointMissingNothingDrawsNoFindingOneMissingStateDoes) {
  RecordedTrace t;
  t.probe = {step_of(1, 1), step_of(1, 8), step_of(1, 9)};
  t.file_ops = {save_of("/r/checkpoint-8/optimizer.pt", 8, {"optimizer"}),
                save_of("/r/checkpoint-8/scheduler.pt", 8, {"scheduler"}),
                save_of("/r/checkpoint-8/rng_state.pth", 8, {"rng"})};
  for (const auto& f : script_findings(t)) EXPECT_NE(f.id, "checkpoint-missing-state") << f.detail;
  t.file_ops.pop_back();  // no RNG state beside the others
  expect_missing_state(script_findings(t), "lacks rng");
}

TEST(ProbeFindingsTest, AModelOnlyStateDictARestartLoadsIsNamedWithWhatItLacks) {
  RecordedTrace t;
  t.probe = {step_of(1, 1), step_of(2, 1)};
  t.file_ops = {save_of("/r/model.pt", 5, {}, /*checkpoint=*/false)};
  ProbeFileOp load;
  load.kind = "load";
  load.start = 2;
  load.path = "/r/model.pt";
  t.file_ops.push_back(load);
  const auto found = model_only_resumes(t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "checkpoint-missing-state");
  EXPECT_EQ(found[0].where, "train.py:9");
  EXPECT_NE(found[0].detail.find("lacks optimizer, step, scheduler, rng"), std::string::npos) << found[0].detail;
  // Negative: loaded only in the first start (not by a restart), or a full checkpoint.
  t.file_ops[1].start = 1;
  EXPECT_TRUE(model_only_resumes(t).empty());
  t.file_ops[1].start = 2;
  t.file_ops[0].checkpoint = true;
  EXPECT_TRUE(model_only_resumes(t).empty());
}

TEST(ProbeFindingsTest, AFolderWrittenInPlaceIsNamedAsTheFolderAFileAsTheFile) {
  RecordedTrace t;
  t.file_ops = {save_of("/r/checkpoint-8/optimizer.pt", 8, {"optimizer"})};
  ProbeFileOp load;
  load.kind = "load";
  load.start = 2;
  load.path = "/r/checkpoint-8/optimizer.pt";
  t.file_ops.push_back(load);
  auto found = non_atomic_saves(t, "checkpoint-8/optimizer.pt");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].detail.find("the checkpoint folder checkpoint-8/ is written in place"), std::string::npos)
      << found[0].detail;
  EXPECT_NE(found[0].detail.find("kill 1 landed during the write of checkpoint-8/optimizer.pt"), std::string::npos)
      << found[0].detail;
  t.file_ops = {save_of("/r/ckpt.pt", 8, {"optimizer"})};
  t.file_ops[0].existed = true;
  load.path = "/r/ckpt.pt";
  t.file_ops.push_back(load);
  found = non_atomic_saves(t, "");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].detail.find("torch.save writes straight onto ckpt.pt"), std::string::npos) << found[0].detail;

  // The kill left the file the restart then failed on unwritten: it loaded from the folder the
  // killed run wrote in place, and that names it. Not so for the atomic form (its .tmp folder).
  t.file_ops = {save_of("/r/step_16/optimizer.bin", 16, {"optimizer"})};
  load.path = "/r/step_16/random_states_0.pkl";
  t.file_ops.push_back(load);
  found = non_atomic_saves(t, "");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].detail.find("the checkpoint folder step_16/ is written in place"), std::string::npos)
      << found[0].detail;
  t.file_ops[0].path = "/r/step_16.tmp/optimizer.bin";
  EXPECT_TRUE(non_atomic_saves(t, "").empty());
}

// A DCP checkpoint is a folder: what it holds is what its metadata's keys hold (the dcp-saved
// fact), with any file saved beside it at the same step (each rank's RNG state); and it is atomic
// by DCP's protocol, so only a restart that took a folder without .metadata is non-atomic.
ProbeFact dcp_saved(const std::string& path, const std::string& holds) {
  ProbeFact f;
  f.fact = "dcp-saved";
  f.start = 1;
  f.seq = 8;
  f.data = {{"path", path}, {"holds", holds}};
  return f;
}

TEST(ProbeFindingsTest, ADcpCheckpointHoldsWhatItsMetadataHoldsAndWhatIsSavedBesideIt) {
  RecordedTrace t;
  t.probe = {step_of(1, 1), step_of(1, 8), step_of(1, 9)};
  t.file_ops = {save_of("/r/step-8", 8, {"optimizer", "scheduler"}), save_of("/r/rng-8-rank0.pt", 8, {"rng"}, false)};
  t.file_ops[0].dcp = true;
  t.facts = {dcp_saved("/r/step-8", "optimizer,scheduler,step")};
  EXPECT_EQ(checkpoint_holds(t, t.file_ops[0]), (std::set<std::string>{"optimizer", "scheduler", "step", "rng"}));
  for (const auto& f : script_findings(t)) EXPECT_NE(f.id, "checkpoint-missing-state") << f.detail;
  // Negative: the objects given to dcp.save hold an optimizer, but its metadata does not (the
  // script's Stateful left it out): the metadata is what a restart gets.
  t.facts = {dcp_saved("/r/step-8", "scheduler,step")};
  expect_missing_state(script_findings(t), "lacks optimizer");
}

TEST(ProbeFindingsTest, ADcpFolderWithoutMetadataARestartLoadedIsNonAtomicOneWithItIsNot) {
  RecordedTrace t;
  t.file_ops = {save_of("/r/step-8", 8, {"optimizer"})};
  t.file_ops[0].dcp = true;
  ProbeFileOp load;
  load.kind = "load";
  load.start = 2;
  load.path = "/r/step-8";
  load.dcp = true;
  load.complete = true;  // .metadata was there: DCP finished the checkpoint
  load.where = "train.py:113";
  t.file_ops.push_back(load);
  EXPECT_TRUE(non_atomic_saves(t, "step-8/__0_0.distcp").empty());
  t.file_ops[1].complete = false;
  const auto found = non_atomic_saves(t, "step-8/__0_0.distcp");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "non-atomic-checkpoint");
  EXPECT_EQ(found[0].where, "train.py:113");
  EXPECT_NE(found[0].detail.find("step-8/, a checkpoint folder without .metadata"), std::string::npos)
      << found[0].detail;
}

// A seed drawn anew in every run (random.randint, the time): named where it is drawn, not at the
// first random op after it. Its near miss: the same seed in both runs names nothing.
TEST(ProbeFindingsTest, ASeedThatDiffersBetweenRunsIsNamedWhereItWasDrawn) {
  const auto seeded = [](const std::string& seed, const std::string& drawn_at) {
    RecordedTrace t;
    ProbeFact f;
    f.fact = "torch-seeded";
    f.start = 1;
    f.where = "main.py:49";
    f.data = {{"seed", seed}, {"drawn_at", drawn_at}};
    t.facts = {f};
    return t;
  };
  const auto found = seed_drawn_anew(seeded("3612", "main.py:46"), seeded("7250", "main.py:46"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "unseeded-rng");
  EXPECT_EQ(found[0].where, "main.py:46");
  EXPECT_NE(found[0].detail.find("torch.manual_seed() (main.py:49) was given 3612 in one run and 7250"),
            std::string::npos)
      << found[0].detail;
  EXPECT_EQ(seed_drawn_anew(seeded("3612", ""), seeded("7250", ""))[0].where, "main.py:49");  // drawn elsewhere
  EXPECT_TRUE(seed_drawn_anew(seeded("0", ""), seeded("0", "")).empty());
}

// A checkpoint written by other means than torch.save onto its path (a buffer's bytes written
// with open()): the file kill 1 landed in the write of, which a restart then loaded, is named at
// that load. Not where the kill landed in another file (the atomic form's .tmp), nor where only
// the first start loaded it.
TEST(ProbeFindingsTest, AFileKillOneToreAndARestartLoadedIsNamedAtTheLoad) {
  RecordedTrace t;
  t.probe = {step_of(1, 1, "p1")};
  t.file_ops = {save_of("", 8, {"optimizer", "step", "scheduler", "rng"})};  // torch.save to a buffer
  ProbeFileOp load;
  load.kind = "load";
  load.start = 2;
  load.path = "/r/ckpt.pt";
  load.where = "train.py:77";
  t.file_ops.push_back(load);
  auto found = non_atomic_saves(t, "ckpt.pt");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].where, "train.py:77");
  EXPECT_NE(found[0].detail.find("kill 1 landed while ckpt.pt was being written in place"), std::string::npos)
      << found[0].detail;
  EXPECT_TRUE(non_atomic_saves(t, "ckpt.pt.tmp").empty());  // the atomic form: the kill tore the temporary
  EXPECT_TRUE(non_atomic_saves(t, "").empty());
  t.file_ops[1].start = 1;  // only the first start loaded it (a warm start): no restart trusted it
  EXPECT_TRUE(non_atomic_saves(t, "ckpt.pt").empty());
}

// accelerate's load_state restores the torch RNG; a new iterator over a plain shuffled loader then
// draws a new order from it. The RNG differs at the first resumed step, yet it was restored: the
// finding says so (resume-rng-redrawn), not that the checkpoint lacks it. Its control: a restart
// that restored nothing, or restored a state no save held, is still resume-missing-rng-state.
TEST(ProbeFindingsTest, AnRngRestoredThenDrawnFromIsNotMissing) {
  RecordedTrace resumed;
  resumed.probe = {step_of(1, 1, "p1"), step_of(2, 1, "p9", "r-after-shuffle")};
  ProbeFact saved;
  saved.fact = "rng-at-save";
  saved.start = 1;
  saved.data = {{"digest", "r-at-save"}};
  ProbeFact restored = saved;
  restored.fact = "rng-restored";
  restored.start = 2;
  restored.where = "accelerate_loop.py:120";
  resumed.facts = {saved, restored};
  const ResumeDeparture d{{2, 9, "parameter digest"}, 9, {"rng.torch", "batch"}};
  auto found = diagnose_resume(resumed, d);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-rng-redrawn");
  EXPECT_NE(found[0].detail.find("restored from the checkpoint (accelerate_loop.py:120)"), std::string::npos)
      << found[0].detail;
  EXPECT_NE(found[0].detail.find("the step's batch differs too"), std::string::npos) << found[0].detail;

  resumed.facts[1].data["digest"] = "r-of-something-else";
  found = diagnose_resume(resumed, d);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "resume-missing-rng-state");
  resumed.facts.pop_back();
  EXPECT_EQ(diagnose_resume(resumed, d).at(0).id, "resume-missing-rng-state");
}

// nondeterministic-op, from two reruns' op records: the first op whose inputs were bitwise equal
// and whose outputs were not, at its line; an op on uninitialized memory (aten::empty) parts
// every run and means nothing. The control: runs whose ops agree name nothing.
TEST(OpFindingsTest, TheFirstOpWithEqualInputsAndDifferentOutputsIsNamed) {
  RecordedTrace a, b;
  const auto op = [](int64_t i, const std::string& name, const std::string& in, const std::string& out,
                     const std::string& where) { return ProbeOp{3, i, name, in, out, where}; };
  a.ops = {op(1, "aten::mm", "i1", "o1", "model.py:10"), op(2, "aten::empty", "e", "u1", "model.py:11"),
           op(3, "aten::randn", "i2", "r1", "model.py:12"), op(4, "aten::add", "i3", "s1", "model.py:13")};
  b.ops = {op(1, "aten::mm", "i1", "o1", "model.py:10"), op(2, "aten::empty", "e", "u2", "model.py:11"),
           op(3, "aten::randn", "i2", "r2", "model.py:12"), op(4, "aten::add", "i4", "s2", "model.py:13")};
  const auto found = first_parting_op(a, b, 4);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "nondeterministic-op");
  EXPECT_EQ(found[0].law, "determinism");
  EXPECT_EQ(found[0].step, 4);
  EXPECT_EQ(found[0].where, "model.py:12");
  EXPECT_NE(found[0].detail.find("aten::randn"), std::string::npos) << found[0].detail;
  EXPECT_NE(found[0].detail.find("a random op drawing from a generator that is not seeded"), std::string::npos)
      << found[0].detail;

  b.ops[2].out = "r1";  // the control: the random op agrees, and so does every op after it but by inputs
  b.ops[3].in = "i3";
  b.ops[3].out = "s1";
  EXPECT_TRUE(first_parting_op(a, b, 4).empty());
}

}  // namespace
}  // namespace trainproof
