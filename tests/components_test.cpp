// Training components LibTorch lacks: GradScaler, DataLoader order, accumulation weights,
// clip_grad_norm_, early stopping.
#include <torch/torch.h>

#include <gtest/gtest.h>

#include "trainproof/core/errors.h"
#include "trainproof/training/data_order.h"
#include "trainproof/training/grad_scaler.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {
namespace {

struct Tiny {
  torch::nn::Linear model{3, 1};
  torch::optim::SGD opt{model->parameters(), torch::optim::SGDOptions(0.1)};
  void backward(GradScaler& s) { s.scale(model(torch::ones({2, 3})).sum()).backward(); }
};

TEST(GradScalerTest, ScalesLossAndUnscalesGradients) {
  torch::manual_seed(0);
  Tiny a, b;
  b.model->weight.set_data(a.model->weight.detach().clone());
  b.model->bias.set_data(a.model->bias.detach().clone());
  GradScaler off(torch::kCPU, {.enabled = false}), on(torch::kCPU, {.init_scale = 1024.0});
  a.backward(off);
  b.backward(on);
  EXPECT_TRUE(torch::allclose(b.model->weight.grad(), a.model->weight.grad() * 1024));
  on.unscale_(b.opt);
  EXPECT_TRUE(bitwise_equal(b.model->weight.grad(), a.model->weight.grad()));
  EXPECT_THROW(on.unscale_(b.opt), std::logic_error) << "unscale_ twice per step";
}

TEST(GradScalerTest, InfGradientSkipsStepAndBacksOff) {
  Tiny t;
  GradScaler s(torch::kCPU);
  t.backward(s);
  t.model->bias.grad().fill_(std::numeric_limits<float>::quiet_NaN());
  const auto before = flat_parameters(*t.model);
  EXPECT_FALSE(s.step(t.opt));
  s.update();
  EXPECT_TRUE(bitwise_equal(before, flat_parameters(*t.model)));
  EXPECT_EQ(s.get_scale(), 32768.0);
  // Negative control: finite gradients step and keep the scale.
  t.opt.zero_grad();
  t.backward(s);
  EXPECT_TRUE(s.step(t.opt));
  s.update();
  EXPECT_FALSE(bitwise_equal(before, flat_parameters(*t.model)));
  EXPECT_EQ(s.get_scale(), 32768.0);
}

TEST(GradScalerTest, GrowsAfterGrowthIntervalFiniteSteps) {
  Tiny t;
  GradScaler s(torch::kCPU, {.init_scale = 8.0, .growth_interval = 3});
  for (int i = 0; i < 3; ++i) {
    t.opt.zero_grad();
    t.backward(s);
    s.step(t.opt);
    s.update();
  }
  EXPECT_EQ(s.get_scale(), 16.0);
  EXPECT_EQ(s.growth_tracker(), 0);
}

TEST(GradScalerTest, DisabledPassesThrough) {
  GradScaler s(torch::kCPU, {.enabled = false});
  const auto loss = torch::tensor(2.5);
  EXPECT_TRUE(s.scale(loss).is_same(loss));
  EXPECT_EQ(s.get_scale(), 1.0);
  EXPECT_NO_THROW(s.update());
}

TEST(GradScalerTest, StateRoundTrips) {
  Tiny t;
  GradScaler s(torch::kCPU, {.growth_interval = 2});
  t.backward(s);
  s.step(t.opt);
  s.update();
  Checkpoint ck;
  s.save(ck, "scaler");
  GradScaler r(torch::kCPU, {.growth_interval = 2});
  r.load(ck, "scaler");
  EXPECT_EQ(r.get_scale(), s.get_scale());
  EXPECT_EQ(r.growth_tracker(), 1);
  GradScaler disabled(torch::kCPU, {.enabled = false});
  EXPECT_THROW(disabled.load(ck, "scaler"), BadInput);
}

TEST(ShuffledBatchesTest, EachEpochIsAPermutationInBatches) {
  torch::manual_seed(0);
  ShuffledBatches loader(70, 16);
  const auto batches = loader.epoch();
  ASSERT_EQ(batches.size(), 5u);
  EXPECT_EQ(batches.back().numel(), 6);
  const auto all = std::get<0>(torch::sort(torch::cat(batches)));
  EXPECT_TRUE(torch::equal(all, torch::arange(70)));
  EXPECT_FALSE(torch::equal(torch::cat(batches), torch::cat(loader.epoch()))) << "epochs reshuffle";
  EXPECT_EQ(ShuffledBatches(70, 16, /*drop_last=*/true).batches_per_epoch(), 4);
}

TEST(ShuffledBatchesTest, DrawsTwoSeedsFromTheGlobalGeneratorLikeDataLoader) {
  torch::manual_seed(3);
  const auto order = torch::cat(ShuffledBatches(10, 4).epoch());
  const auto after = torch::rand({1});
  torch::manual_seed(3);
  torch::empty({}, torch::kLong).random_();                                       // the iterator's base seed
  const int64_t seed = torch::empty({}, torch::kLong).random_().item<int64_t>();  // RandomSampler's
  auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(seed));
  EXPECT_TRUE(torch::equal(order, torch::randperm(10, gen, torch::kLong)));
  EXPECT_TRUE(torch::equal(after, torch::rand({1}))) << "exactly two draws from the global generator";
}

TEST(AccumulationTest, WeightsFollowTheRule) {
  EXPECT_EQ(accumulation_weight(Accumulation::kSum, 16, 4, 64), 1.0);
  EXPECT_EQ(accumulation_weight(Accumulation::kDivideByCount, 16, 4, 64), 0.25);
  EXPECT_EQ(accumulation_weight(Accumulation::kWeightBySize, 6, 5, 70), 6.0 / 70.0);
}

TEST(ClipGradNormTest, ReturnsNormBeforeClippingAndClipsToMaxNorm) {
  torch::nn::Linear m(4, 3);
  m(torch::ones({5, 4}) * 10).sum().backward();
  const double reference = torch::cat({m->weight.grad().flatten(), m->bias.grad().flatten()}).norm().item<double>();
  const double norm = clip_grad_norm_(m->parameters(), 1.0);
  EXPECT_NEAR(norm, reference, 1e-4 * reference);
  const double after = torch::cat({m->weight.grad().flatten(), m->bias.grad().flatten()}).norm().item<double>();
  EXPECT_NEAR(after, 1.0, 1e-5);
}

TEST(EarlyStoppingTest, StopsAfterPatienceEpochsWithoutNewBest) {
  EarlyStopping s(2);
  EXPECT_EQ(s.step(1.0), EarlyStopping::Verdict::kNewBest);
  EXPECT_EQ(s.step(1.0), EarlyStopping::Verdict::kNoImprovement) << "a tie is not an improvement";
  EXPECT_EQ(s.step(0.5), EarlyStopping::Verdict::kNewBest);
  EXPECT_EQ(s.step(0.6), EarlyStopping::Verdict::kNoImprovement);
  EXPECT_EQ(s.step(0.7), EarlyStopping::Verdict::kStop);
  EXPECT_EQ(s.best(), 0.5);
}

}  // namespace
}  // namespace trainproof
