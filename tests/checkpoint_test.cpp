// Checkpoints: bitwise round trips of modules, optimizers, schedulers and RNG state, and
// BadInput (never a crash) for every damaged file.
#include <fstream>

#include <torch/torch.h>

#include <gtest/gtest.h>

#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training_state.h"

namespace trainproof {
namespace {

Checkpoint sample() {
  Checkpoint ck;
  ck.put("w", torch::arange(12, torch::kFloat).reshape({3, 4}));
  ck.put("h", torch::tensor({1.5, -2.0}, torch::kHalf));
  ck.put("empty", torch::empty({0, 3}));
  ck.put("epoch", int64_t{7});
  ck.put("lr", 0.001);
  ck.put("note", std::string("hello"));
  return ck;
}

TEST(CheckpointTest, RoundTripsEveryKind) {
  TempDir dir("ckpt");
  sample().save(dir.path() / "a.tpck");
  const Checkpoint r = Checkpoint::load(dir.path() / "a.tpck");
  EXPECT_TRUE(bitwise_equal(r.tensor("w"), sample().tensor("w")));
  EXPECT_TRUE(bitwise_equal(r.tensor("h"), sample().tensor("h")));
  EXPECT_EQ(r.tensor("empty").sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(r.integer("epoch"), 7);
  EXPECT_EQ(r.real("lr"), 0.001);
  EXPECT_EQ(r.text("note"), "hello");
}

TEST(CheckpointTest, MissingAndMistypedEntriesNameTheFile) {
  const Checkpoint ck = Checkpoint::deserialize(sample().serialize(), "some/file.tpck");
  try {
    ck.tensor("nope");
    FAIL();
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("some/file.tpck"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'nope'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ck.integer("lr"), BadInput);
}

TEST(CheckpointTest, EveryTruncationIsBadInput) {
  const std::string bytes = sample().serialize();
  for (size_t len = 0; len < bytes.size(); ++len)
    EXPECT_THROW(Checkpoint::deserialize(std::string_view(bytes).substr(0, len), "cut"), BadInput) << len;
}

TEST(CheckpointTest, EveryFlippedByteIsBadInput) {
  const std::string bytes = sample().serialize();
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    EXPECT_THROW(Checkpoint::deserialize(damaged, "flipped"), BadInput) << "byte " << i;
  }
}

TEST(CheckpointTest, ChecksumCatchesAlteredPayload) {
  std::string bytes = sample().serialize();
  bytes.back() = static_cast<char>(bytes.back() ^ 1);
  try {
    Checkpoint::deserialize(bytes, "altered.tpck");
    FAIL();
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("checksum mismatch"), std::string::npos) << e.what();
  }
}

// Found by the fuzzer: a zero dimension beside huge ones passed the numel bound and made
// LibTorch's stride computation overflow (an uncaught c10::Error). The first byte is the
// fuzz target's mode flag (even: the rest is a payload to wrap in a valid header).
TEST(CheckpointTest, ZeroDimensionBesideHugeOnesIsBadInput) {
  std::ifstream in("tests/data/hostile/checkpoint_zero_dim_overflow.bin", std::ios::binary);
  ASSERT_TRUE(in);
  const std::string raw((std::istreambuf_iterator<char>(in)), {});
  const std::string bytes = raw[0] & 1 ? raw.substr(1) : checkpoint_file_from_payload(std::string_view(raw).substr(1));
  EXPECT_THROW(Checkpoint::deserialize(bytes, "hostile"), BadInput);
  // The same shape, made by hand: [0, 2^40, 2^40] float32 with 0 bytes of data.
  std::string p;
  auto raw_put = [&](auto v) { p.append(reinterpret_cast<const char*>(&v), sizeof v); };
  raw_put(uint32_t{1});
  raw_put(uint16_t{1});
  p += "t";
  raw_put(uint8_t{0});
  raw_put(static_cast<uint8_t>(c10::kFloat));
  raw_put(uint8_t{3});
  raw_put(int64_t{0});
  raw_put(int64_t{1} << 40);
  raw_put(int64_t{1} << 40);
  raw_put(uint64_t{0});
  try {
    Checkpoint::deserialize(checkpoint_file_from_payload(p), "hand-made");
    FAIL() << "accepted";
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("implausible shape"), std::string::npos) << e.what();
  }
}

// Every input of the fuzzer's corpus (tests/fuzz/corpus/checkpoint) either loads or is
// BadInput: no other exception, no crash. The first byte is the fuzz target's mode flag.
TEST(CheckpointTest, FuzzCorpusLoadsOrIsBadInput) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator("tests/fuzz/corpus/checkpoint")) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), {});
    if (raw.empty()) continue;
    const std::string bytes =
        raw[0] & 1 ? raw.substr(1) : checkpoint_file_from_payload(std::string_view(raw).substr(1));
    try {
      Checkpoint::deserialize(bytes, e.path().string());
    } catch (const BadInput&) {
    }
    ++n;
  }
  EXPECT_GE(n, 4u);
}

TEST(CheckpointTest, MissingFileIsBadInput) {
  EXPECT_THROW(Checkpoint::load("/nonexistent/dir/x.tpck"), BadInput);
}

// Train a little, checkpoint everything, rebuild, load, train on: bitwise equal to the
// uninterrupted run. Dropping the optimizer state is the negative control.
struct Loop {
  torch::nn::Linear model{4, 2};
  torch::optim::AdamW opt{model->parameters(), torch::optim::AdamWOptions(0.05)};
  OneCycleLR sched{opt, OneCycleOptions{.max_lr = 0.1, .total_steps = 20}};
  void steps(int n) {
    for (int i = 0; i < n; ++i) {
      opt.zero_grad();
      torch::dropout(model(torch::randn({8, 4})), 0.2, true).pow(2).mean().backward();
      opt.step();
      sched.step();
    }
  }
};

torch::Tensor resume(bool with_optimizer) {
  torch::manual_seed(1);
  Checkpoint ck;
  {
    Loop a;
    a.steps(7);
    save_module(ck, "model", *a.model);
    if (with_optimizer) save_optimizer(ck, "opt", a.opt);
    a.sched.save(ck, "sched");
    save_rng(ck, "rng");
  }
  const Checkpoint loaded = Checkpoint::deserialize(ck.serialize(), "mem");
  torch::manual_seed(99);
  Loop b;
  load_module(loaded, "model", *b.model);
  if (with_optimizer) load_optimizer(loaded, "opt", b.opt);
  b.sched.load(loaded, "sched");
  load_rng(loaded, "rng");
  b.steps(13);
  return flat_parameters(*b.model);
}

TEST(CheckpointTest, ResumeIsBitwiseAndDroppingOptimizerStateIsCaught) {
  torch::manual_seed(1);
  Loop u;
  u.steps(20);
  const torch::Tensor expected = flat_parameters(*u.model);
  EXPECT_TRUE(bitwise_equal(resume(true), expected));
  EXPECT_FALSE(bitwise_equal(resume(false), expected)) << "negative control: optimizer state omitted";
}

TEST(CheckpointTest, ShapeMismatchOnLoadIsBadInput) {
  Checkpoint ck;
  torch::nn::Linear small(2, 2), big(3, 3);
  save_module(ck, "model", *small);
  EXPECT_THROW(load_module(ck, "model", *big), BadInput);
}

// TrainingState: every piece under its prefix; the mask leaves out exactly the pieces named.
struct StateFixture {
  torch::nn::Linear model{3, 2};
  torch::optim::SGD opt{model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9)};
  StepLR sched{opt, 2, 0.5};
  GradScaler scaler{torch::kCPU, GradScalerOptions{}};
  EarlyStopping stopper{3};
  int64_t step = 7, epoch = 2;
  TrainingState state() {
    return {.model = model.get(),
            .optimizer = &opt,
            .scheduler = &sched,
            .scaler = &scaler,
            .early_stopping = &stopper,
            .rng = true,
            .position = {{"step", &step}, {"epoch", &epoch}}};
  }
};

bool has_prefix(const Checkpoint& ck, const std::string& prefix) {
  for (const auto& k : ck.keys())
    if (k.rfind(prefix, 0) == 0) return true;
  return false;
}

TEST(TrainingStateTest, SavesEveryPieceUnderItsPrefix) {
  StateFixture f;
  Checkpoint ck;
  f.state().save(ck);
  for (const char* p : {"model/", "opt/", "sched/", "scaler/", "early_stopping/", "rng/", "pos/"})
    EXPECT_TRUE(has_prefix(ck, p)) << p;
  EXPECT_EQ(ck.integer("pos/step"), 7);
  EXPECT_EQ(ck.integer("pos/epoch"), 2);
}

TEST(TrainingStateTest, TheMaskLeavesOutExactlyThePiecesNamed) {
  StateFixture f;
  Checkpoint ck;
  f.state().save(ck, TrainingState::kOptimizer | TrainingState::kRng);
  EXPECT_FALSE(has_prefix(ck, "opt/"));
  EXPECT_FALSE(has_prefix(ck, "rng/"));
  for (const char* p : {"model/", "sched/", "scaler/", "early_stopping/", "pos/"}) EXPECT_TRUE(has_prefix(ck, p)) << p;
}

TEST(TrainingStateTest, LoadRestoresEveryPieceExceptThoseOmitted) {
  StateFixture saved;
  Checkpoint ck;
  saved.state().save(ck);
  StateFixture fresh;
  fresh.step = fresh.epoch = 0;
  {
    torch::NoGradGuard no_grad;
    fresh.model->weight.fill_(0.5);
  }
  fresh.state().load(ck, TrainingState::kPosition);
  EXPECT_TRUE(bitwise_equal(fresh.model->weight, saved.model->weight));
  EXPECT_EQ(fresh.step, 0) << "the position was omitted and must not move";
  fresh.state().load(ck);
  EXPECT_EQ(fresh.step, 7);
  EXPECT_EQ(fresh.epoch, 2);
}

TEST(TrainingStateTest, ACheckpointWithoutTheModelIsBadInput) {
  StateFixture f;
  Checkpoint ck;
  f.state().save(ck, TrainingState::kModel);
  EXPECT_THROW(f.state().load(ck), BadInput);
}

}  // namespace
}  // namespace trainproof
