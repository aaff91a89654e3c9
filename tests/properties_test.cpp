// RapidCheck properties of the documents' laws, over generated stop points, optimizers,
// schedulers, sizes and split patterns, each with a negative control asserting that the
// broken variant is caught. A failure prints its seed; RC_PARAMS="seed=N" reproduces it.
#include <cstring>
#include <numeric>

#include <torch/torch.h>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "trainproof/core/compare.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/grad_scaler.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"
#include "trainproof/training/training_state.h"

namespace trainproof {
namespace {

// ---- exact resume ------------------------------------------------------------------------

enum class Opt { kSgdMomentum, kAdam, kAdamW };
enum class Sched { kWarmupCosine, kStep, kCosine, kOneCycle };
// A sabotage: the TrainingState pieces the resume leaves out.
using Sabotage = unsigned;
constexpr Sabotage kNoSabotage = 0;

struct ResumeCase {
  Opt opt;
  Sched sched;
  bool dropout;
  bool scaler;
  int64_t total;  // steps
  int64_t stop;   // checkpoint after this many steps, 1 <= stop < total
};

struct Loop {
  torch::nn::Sequential model;
  std::unique_ptr<torch::optim::Optimizer> opt;
  std::unique_ptr<LRScheduler> sched;
  GradScaler scaler;

  explicit Loop(const ResumeCase& c)
      : scaler(torch::kCPU, GradScalerOptions{.init_scale = 256.0, .growth_interval = 3, .enabled = c.scaler}) {
    torch::manual_seed(7);
    auto fc1 = torch::nn::Linear(6, 8);
    auto relu = torch::nn::ReLU();
    auto fc2 = torch::nn::Linear(8, 2);
    model = c.dropout ? torch::nn::Sequential(fc1, relu, torch::nn::Dropout(0.3), fc2)
                      : torch::nn::Sequential(fc1, relu, fc2);
    const auto params = model->parameters();
    switch (c.opt) {
      case Opt::kSgdMomentum:
        opt = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(0.05).momentum(0.9));
        break;
      case Opt::kAdam:
        opt = std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(0.01));
        break;
      case Opt::kAdamW:
        opt = std::make_unique<AdamW>(params, torch::optim::AdamWOptions(0.01));
        break;
    }
    switch (c.sched) {
      case Sched::kWarmupCosine:
        sched = std::make_unique<LambdaLR>(*opt, warmup_cosine(3, c.total + 1));
        break;
      case Sched::kStep:
        sched = std::make_unique<StepLR>(*opt, 2, 0.5);
        break;
      case Sched::kCosine:
        sched = std::make_unique<CosineAnnealingLR>(*opt, 5);
        break;
      case Sched::kOneCycle:
        sched = std::make_unique<OneCycleLR>(*opt, OneCycleOptions{.max_lr = 0.05, .total_steps = c.total});
        break;
    }
  }

  void train(int64_t first, int64_t end) {
    for (int64_t step = first; step < end; ++step) {
      auto g = at::detail::createCPUGenerator(static_cast<uint64_t>(step));  // data seeded by step
      const auto x = torch::randn({16, 6}, g), target = torch::randn({16, 2}, g);
      opt->zero_grad();
      scaler.scale(torch::mse_loss(model->forward(x), target)).backward();
      scaler.step(*opt);
      scaler.update();
      sched->step();
    }
  }

  // What a resume needs; `step` is where the loop stopped (its data position).
  TrainingState pieces(int64_t* step = nullptr) {
    TrainingState s{.model = model.get(), .optimizer = opt.get(), .scheduler = sched.get(), .scaler = &scaler};
    s.rng = step != nullptr;
    if (step) s.position = {{"step", step}};
    return s;
  }
  Checkpoint state() {
    Checkpoint ck;
    pieces().save(ck);
    return ck;
  }
};

// Parameters, optimizer state, scheduler and scaler state, compared as their bytes.
bool same_state(Loop& a, Loop& b) {
  return a.state().serialize() == b.state().serialize();
}

// Train c.stop steps, checkpoint to a file, rebuild from scratch, load (minus what the
// sabotage drops), finish; compare with the uninterrupted run.
bool resumes_bitwise(const ResumeCase& c, Sabotage sabotage) {
  Loop uninterrupted(c);
  uninterrupted.train(0, c.total);

  TempDir dir("prop-resume");
  const auto path = dir.path() / "ckpt.tpck";
  {
    Loop first(c);
    first.train(0, c.stop);
    Checkpoint ck;
    int64_t step = c.stop;
    first.pieces(&step).save(ck);
    ck.save(path);
  }
  Loop resumed(c);  // a fresh object graph, as a new process would build
  int64_t step = 0;
  resumed.pieces(&step).load(Checkpoint::load(path), sabotage);
  resumed.train(step, c.total);
  return same_state(uninterrupted, resumed);
}

rc::Gen<ResumeCase> gen_resume_case() {
  return rc::gen::apply(
      [](int opt, int sched, bool dropout, bool scaler, int64_t total, int64_t stop_frac) {
        const int64_t stop = 1 + (stop_frac % (total - 1));
        return ResumeCase{static_cast<Opt>(opt), static_cast<Sched>(sched), dropout, scaler, total, stop};
      },
      rc::gen::inRange(0, 3), rc::gen::inRange(0, 4), rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>(),
      rc::gen::inRange<int64_t>(4, 16), rc::gen::inRange<int64_t>(0, 1000));
}

RC_GTEST_PROP(ResumeProperty, ResumedRunIsBitwiseIdentical, ()) {
  const ResumeCase c = *gen_resume_case();
  RC_ASSERT(resumes_bitwise(c, kNoSabotage));
}

// Negative controls: each dropped piece of state must show up as a divergence.
RC_GTEST_PROP(ResumeProperty, OmittingOptimizerStateIsDetected, ()) {
  const ResumeCase c = *gen_resume_case();
  RC_ASSERT(!resumes_bitwise(c, TrainingState::kOptimizer));
}

RC_GTEST_PROP(ResumeProperty, OmittingSchedulerStateIsDetected, ()) {
  ResumeCase c = *gen_resume_case();
  // StepLR(step_size=2) has not changed the rate before step 2: there is nothing to lose.
  RC_PRE(c.sched != Sched::kStep || c.stop >= 2);
  RC_ASSERT(!resumes_bitwise(c, TrainingState::kScheduler));
}

RC_GTEST_PROP(ResumeProperty, OmittingRngStateWithDropoutIsDetected, ()) {
  ResumeCase c = *gen_resume_case();
  c.dropout = true;
  RC_ASSERT(!resumes_bitwise(c, TrainingState::kRng));
}

// ---- accumulation ------------------------------------------------------------------------

struct Split {
  std::vector<int64_t> sizes;
  int64_t total() const { return std::accumulate(sizes.begin(), sizes.end(), int64_t{0}); }
  bool even() const {
    return std::all_of(sizes.begin(), sizes.end(), [&](int64_t s) { return s == sizes[0]; });
  }
};

// The accumulated float64 gradient of a linear model under a rule, and the full batch's.
std::pair<torch::Tensor, torch::Tensor> accumulate(const Split& split, Accumulation rule, uint64_t seed) {
  auto g = at::detail::createCPUGenerator(seed);
  const int64_t n = split.total();
  const auto X = torch::randn({n, 5}, g, torch::kDouble);
  const auto y = torch::randint(0, 3, {n}, g);
  torch::manual_seed(static_cast<int64_t>(seed));
  torch::nn::Linear model(5, 3);
  model->to(torch::kDouble);
  torch::nn::functional::cross_entropy(model(X), y).backward();
  const auto full = model->weight.grad().clone();
  model->zero_grad();
  int64_t start = 0;
  for (int64_t size : split.sizes) {
    const auto loss =
        torch::nn::functional::cross_entropy(model(X.slice(0, start, start + size)), y.slice(0, start, start + size));
    (loss * accumulation_weight(rule, size, static_cast<int64_t>(split.sizes.size()), n)).backward();
    start += size;
  }
  return {model->weight.grad().clone(), full};
}

bool matches(const torch::Tensor& a, const torch::Tensor& b) {
  return torch::allclose(a, b, 1e-10, 1e-12);
}

rc::Gen<Split> gen_even_split() {
  return rc::gen::apply([](int64_t count, int64_t size) { return Split{std::vector<int64_t>(count, size)}; },
                        rc::gen::inRange<int64_t>(2, 9), rc::gen::inRange<int64_t>(1, 33));
}

rc::Gen<Split> gen_uneven_split() {
  return rc::gen::suchThat(rc::gen::map(rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(1, 33)),
                                        [](std::vector<int64_t> v) { return Split{std::move(v)}; }),
                           [](const Split& s) { return s.sizes.size() >= 2 && !s.even(); });
}

RC_GTEST_PROP(AccumulationProperty, DividingByCountMatchesFullBatchForEvenSplits, ()) {
  const Split s = *gen_even_split();
  const auto [acc, full] = accumulate(s, Accumulation::kDivideByCount, *rc::gen::inRange<uint64_t>(0, 1u << 20));
  RC_ASSERT(matches(acc, full));
}

RC_GTEST_PROP(AccumulationProperty, WeightingBySizeMatchesFullBatchForAnySplit, ()) {
  const Split s = *rc::gen::oneOf(gen_even_split(), gen_uneven_split());
  const auto [acc, full] = accumulate(s, Accumulation::kWeightBySize, *rc::gen::inRange<uint64_t>(0, 1u << 20));
  RC_ASSERT(matches(acc, full));
}

RC_GTEST_PROP(AccumulationProperty, NotDividingGivesRatioOfMicroBatchCount, ()) {
  const Split s = *gen_even_split();
  const auto [acc, full] = accumulate(s, Accumulation::kSum, *rc::gen::inRange<uint64_t>(0, 1u << 20));
  RC_ASSERT(matches(acc, full * static_cast<double>(s.sizes.size())));
}

// Negative control: the divide-by-count rule on uneven splits is caught.
RC_GTEST_PROP(AccumulationProperty, DividingByCountOnUnevenSplitsIsCaught, ()) {
  const Split s = *gen_uneven_split();
  const auto [acc, full] = accumulate(s, Accumulation::kDivideByCount, *rc::gen::inRange<uint64_t>(0, 1u << 20));
  RC_ASSERT(!matches(acc, full));
}

// ---- schedulers --------------------------------------------------------------------------

RC_GTEST_PROP(SchedulerProperty, ChainableCosineEqualsClosedForm, ()) {
  const int64_t t_max = *rc::gen::inRange<int64_t>(1, 60);
  const double base = *rc::gen::element(1e-4, 1e-3, 0.01, 0.1, 1.0);
  const double eta_min = base * *rc::gen::element(0.0, 0.01, 0.5);
  torch::nn::Linear m(2, 1);
  AdamW opt(m->parameters(), torch::optim::AdamWOptions(base));
  CosineAnnealingLR sched(opt, t_max, eta_min);
  for (int64_t t = 0; t <= 3 * t_max; ++t, sched.step()) {
    const double closed = eta_min + (base - eta_min) * (1 + std::cos(M_PI * static_cast<double>(t) / t_max)) / 2;
    RC_ASSERT(std::abs(sched.get_last_lr()[0] - closed) <= 1e-9 * base);
  }
}

RC_GTEST_PROP(SchedulerProperty, ChainableStepEqualsClosedForm, ()) {
  const int64_t size = *rc::gen::inRange<int64_t>(1, 10);
  const double gamma = *rc::gen::element(0.1, 0.5, 0.9);
  torch::nn::Linear m(2, 1);
  AdamW opt(m->parameters(), torch::optim::AdamWOptions(0.1));
  StepLR sched(opt, size, gamma);
  for (int64_t t = 0; t < 50; ++t, sched.step())
    RC_ASSERT(std::abs(sched.get_last_lr()[0] - 0.1 * std::pow(gamma, t / size)) <= 1e-12);
}

// Negative control: a per-batch schedule stepped once per epoch is a different curve.
RC_GTEST_PROP(SchedulerProperty, PerBatchScheduleSteppedPerEpochIsDetected, ()) {
  const int64_t steps_per_epoch = *rc::gen::inRange<int64_t>(2, 20);
  const int64_t epochs = *rc::gen::inRange<int64_t>(2, 10);
  const int64_t total = steps_per_epoch * epochs, warmup = std::max<int64_t>(1, total / 10);
  auto curve = [&](bool per_epoch) {
    torch::nn::Linear m(2, 1);
    AdamW opt(m->parameters(), torch::optim::AdamWOptions(1e-3));
    LambdaLR sched(opt, warmup_cosine(warmup, total));
    std::vector<double> lrs;
    for (int64_t e = 0; e < epochs; ++e)
      for (int64_t b = 0; b < steps_per_epoch; ++b) {
        lrs.push_back(sched.get_last_lr()[0]);
        if (!per_epoch || b == steps_per_epoch - 1) sched.step();
      }
    return lrs;
  };
  RC_ASSERT(curve(false) != curve(true));
}

// ---- GradScaler ----------------------------------------------------------------------------

RC_GTEST_PROP(GradScalerProperty, ScaleFollowsGrowthIntervalRuleAndSkipsIffNonFinite, ()) {
  const auto infs =
      *rc::gen::container<std::vector<bool>>(rc::gen::map(rc::gen::inRange(0, 4), [](int v) { return v == 0; }));
  const int64_t interval = *rc::gen::inRange<int64_t>(1, 5);
  torch::nn::Linear m(3, 1);
  torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.01));
  GradScaler scaler(torch::kCPU, {.init_scale = 1024.0, .growth_interval = interval});
  double expected = 1024.0;
  int64_t tracker = 0;
  for (bool inf : infs) {
    opt.zero_grad();
    scaler.scale(m(torch::ones({2, 3})).sum()).backward();
    if (inf) m->bias.grad().fill_(std::numeric_limits<float>::infinity());
    const auto before = flat_parameters(*m);
    const bool stepped = scaler.step(opt);
    scaler.update();
    RC_ASSERT(stepped == !inf);
    RC_ASSERT(bitwise_equal(before, flat_parameters(*m)) == inf);
    if (inf) {
      expected *= 0.5;
      tracker = 0;
    } else if (++tracker == interval) {
      expected *= 2.0;
      tracker = 0;
    }
    RC_ASSERT(scaler.get_scale() == expected);
  }
}

RC_GTEST_PROP(GradScalerProperty, UnscaleThenClipEqualsClippingTrueGradients, ()) {
  const int exponent = *rc::gen::inRange(0, 20);
  const double max_norm = *rc::gen::element(0.01, 0.1, 1.0, 100.0);
  torch::manual_seed(*rc::gen::inRange(0, 1000));
  torch::nn::Linear a(5, 3), b(5, 3);
  b->weight.set_data(a->weight.detach().clone());
  b->bias.set_data(a->bias.detach().clone());
  const auto x = torch::randn({4, 5});
  a(x).pow(2).sum().backward();
  clip_grad_norm_(a->parameters(), max_norm);
  torch::optim::SGD opt(b->parameters(), torch::optim::SGDOptions(0.1));
  GradScaler scaler(torch::kCPU, {.init_scale = std::ldexp(1.0, exponent)});
  scaler.scale(b(x).pow(2).sum()).backward();
  scaler.unscale_(opt);
  clip_grad_norm_(b->parameters(), max_norm);
  // Scaling by a power of two and back is exact, so the clipped gradients are bitwise equal.
  RC_ASSERT(bitwise_equal(a->weight.grad(), b->weight.grad()));
  RC_ASSERT(bitwise_equal(a->bias.grad(), b->bias.grad()));
}

// ---- autocast ----------------------------------------------------------------------------

RC_GTEST_PROP(AutocastProperty, LowPrecisionOutputsFloat32WeightsLossAndGrads, ()) {
  const int64_t in = *rc::gen::inRange<int64_t>(1, 64), hidden = *rc::gen::inRange<int64_t>(1, 64),
                classes = *rc::gen::inRange<int64_t>(2, 10), batch = *rc::gen::inRange<int64_t>(1, 16);
  auto fc1 = torch::nn::Linear(in, hidden);
  auto fc2 = torch::nn::Linear(hidden, classes);
  torch::Tensor h, logits, loss;
  {
    AutocastGuard autocast(c10::kCPU, torch::kBFloat16);
    h = fc1(torch::randn({batch, in}));
    logits = fc2(torch::relu(h));
    loss = torch::nn::functional::cross_entropy(logits, torch::randint(0, classes, {batch}));
  }
  loss.backward();
  RC_ASSERT(h.scalar_type() == torch::kBFloat16);
  RC_ASSERT(logits.scalar_type() == torch::kBFloat16);
  RC_ASSERT(loss.scalar_type() == torch::kFloat);
  RC_ASSERT(fc1->weight.scalar_type() == torch::kFloat);
  RC_ASSERT(fc1->weight.grad().scalar_type() == torch::kFloat);
  RC_ASSERT(fc2->bias.grad().scalar_type() == torch::kFloat);
}

// ---- golden store and comparator -----------------------------------------------------------

// Doubles exact in `d` (float16/bfloat16 values are exact in float32 after rounding).
std::vector<double> values_in(DType d, const std::vector<double>& raw) {
  std::vector<double> out;
  for (double v : raw) {
    if (d == DType::kFloat64) {
      out.push_back(v);
      continue;
    }
    const auto t = torch::tensor(v, torch::kDouble)
                       .to(d == DType::kFloat32   ? torch::kFloat
                           : d == DType::kFloat16 ? torch::kHalf
                                                  : torch::kBFloat16);
    out.push_back(t.item<double>());
  }
  return out;
}

rc::Gen<double> gen_finite() {
  return rc::gen::oneOf(rc::gen::arbitrary<double>(),
                        rc::gen::map(rc::gen::inRange(-100000, 100000), [](int v) { return v / 1024.0; }));
}

RC_GTEST_PROP(GoldenStoreProperty, RandomTracesRoundTripBitwise, ()) {
  TempDir dir("prop-golden");
  GoldenFile g;
  g.scenario = "random";
  g.devices["cpu"].fingerprint = "{}";
  Trace& t = g.devices["cpu"].trace;
  const auto n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) {
    const auto kind = *rc::gen::inRange(0, 6);
    const std::string name = "s" + std::to_string(i);
    if (kind < 4) {
      const DType d = std::array{DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16}[kind];
      t.add(name, d, values_in(d, *rc::gen::container<std::vector<double>>(rc::gen::arbitrary<double>())));
    } else {
      t.add_ints(name, kind == 4 ? DType::kInt64 : DType::kInt32,
                 *rc::gen::container<std::vector<int64_t>>(rc::gen::arbitrary<int64_t>()));
    }
  }
  write_golden(dir.path() / "r.h5", g);
  const GoldenFile r = read_golden(dir.path() / "r.h5");
  const auto& back = r.devices.at("cpu").trace.series;
  RC_ASSERT(back.size() == t.series.size());
  for (size_t i = 0; i < back.size(); ++i) {
    RC_ASSERT(back[i].produced == t.series[i].produced);
    RC_ASSERT(back[i].ints == t.series[i].ints);
    RC_ASSERT(back[i].values.size() == t.series[i].values.size());
    RC_ASSERT(std::memcmp(back[i].values.data(), t.series[i].values.data(), back[i].values.size() * sizeof(double)) ==
              0);
  }
}

RC_GTEST_PROP(ComparatorProperty, ExactPassesIffBitwiseEqual, ()) {
  const double a = *rc::gen::arbitrary<double>(), b = *rc::gen::oneOf(rc::gen::just(a), rc::gen::arbitrary<double>());
  const bool bitwise = std::memcmp(&a, &b, sizeof a) == 0 && !std::isnan(a);
  RC_ASSERT(Tolerance::exact().accepts(a, b, DType::kFloat64) == bitwise);
}

RC_GTEST_PROP(ComparatorProperty, UlpDistanceIsSymmetricAndZeroOnlyForEqualValues, ()) {
  const DType d = *rc::gen::element(DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16);
  const auto v = values_in(d, {*gen_finite(), *gen_finite()});
  RC_PRE(std::isfinite(v[0]) && std::isfinite(v[1]));
  RC_ASSERT(ulp_distance(v[0], v[1], d) == ulp_distance(v[1], v[0], d));
  RC_ASSERT((ulp_distance(v[0], v[1], d) == 0) == (std::memcmp(&v[0], &v[1], sizeof(double)) == 0));
}

RC_GTEST_PROP(ComparatorProperty, SingleElementChangeIsReportedAtItsIndex, ()) {
  const auto base = *rc::gen::nonEmpty(rc::gen::container<std::vector<double>>(gen_finite()));
  const size_t i = *rc::gen::inRange<size_t>(0, base.size());
  auto changed = base;
  changed[i] = std::nextafter(changed[i], INFINITY);
  Trace t;
  const Series g = t.add("g", DType::kFloat64, base);  // copies: add() may reallocate
  const Series o = t.add("o", DType::kFloat64, changed);
  const auto c = compare_series(g, o, false);
  RC_ASSERT(c.verdict == Verdict::kFail);
  RC_ASSERT(c.first_divergence == static_cast<int64_t>(i));
  RC_ASSERT(c.divergent == 1u);
}

}  // namespace
}  // namespace trainproof
