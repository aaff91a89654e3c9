// Line-by-line counterparts of torch/optim/lr_scheduler.py (LambdaLR, StepLR,
// CosineAnnealingLR, OneCycleLR, ReduceLROnPlateau).
#include "trainproof/training/lr_scheduler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"

namespace trainproof {
namespace {

constexpr double kPi = 3.141592653589793;  // Python's math.pi

torch::Tensor doubles(const std::vector<double>& v) {
  return torch::tensor(v, torch::TensorOptions().dtype(torch::kDouble));
}

std::vector<double> from_doubles(const torch::Tensor& t, size_t expect, const Checkpoint& ck, const std::string& key) {
  if (t.scalar_type() != torch::kDouble || t.dim() != 1 || static_cast<size_t>(t.numel()) != expect)
    throw BadInput(fmt::format("{}: entry '{}' must hold {} float64 values", ck.source(), key, expect));
  const double* p = t.data_ptr<double>();
  return std::vector<double>(p, p + expect);
}

}  // namespace

// ---- LRScheduler ---------------------------------------------------------------------------

LRScheduler::LRScheduler(torch::optim::Optimizer& opt) : opt_(opt), base_lrs_(group_lrs()) {}

std::vector<double> LRScheduler::group_lrs() const {
  std::vector<double> lrs;
  for (const auto& g : opt_.param_groups()) lrs.push_back(g.options().get_lr());
  return lrs;
}

void LRScheduler::initial_step() {
  step_count_ = 0;
  is_initial_ = true;
  step();
  is_initial_ = false;
}

void LRScheduler::step() {
  ++step_count_;
  ++last_epoch_;
  set_group_lrs(get_lr());
}

void LRScheduler::update_lr_at(int64_t epoch) {
  last_epoch_ = epoch;
  set_group_lrs(closed_form_lr());
}

void LRScheduler::set_group_lrs(const std::vector<double>& lrs) {
  auto& groups = opt_.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(lrs[i]);
  last_lr_ = group_lrs();
}

void LRScheduler::save(Checkpoint& ck, const std::string& prefix) const {
  ck.put(prefix + "/last_epoch", last_epoch_);
  ck.put(prefix + "/step_count", step_count_);
  ck.put(prefix + "/base_lrs", doubles(base_lrs_));
  ck.put(prefix + "/last_lr", doubles(last_lr_));
}

void LRScheduler::load(const Checkpoint& ck, const std::string& prefix) {
  if (fault_injected("resume-drops-scheduler-state")) return;  // the schedule restarts from its first step
  last_epoch_ = ck.integer(prefix + "/last_epoch");
  step_count_ = ck.integer(prefix + "/step_count");
  base_lrs_ = from_doubles(ck.tensor(prefix + "/base_lrs"), base_lrs_.size(), ck, prefix + "/base_lrs");
  last_lr_ = from_doubles(ck.tensor(prefix + "/last_lr"), base_lrs_.size(), ck, prefix + "/last_lr");
}

// ---- LambdaLR ------------------------------------------------------------------------------

LambdaLR::LambdaLR(torch::optim::Optimizer& opt, std::function<double(int64_t)> lr_lambda)
    : LRScheduler(opt), lambda_(std::move(lr_lambda)) {
  initial_step();
}

std::vector<double> LambdaLR::get_lr() {
  std::vector<double> out;
  const int64_t epoch = fault_injected("lambda-off-by-one") ? last_epoch_ + 1 : last_epoch_;
  for (double base : base_lrs_) out.push_back(base * lambda_(epoch));
  return out;
}

std::function<double(int64_t)> warmup_cosine(int64_t warmup, int64_t total) {
  return [warmup, total](int64_t step) {
    if (step < warmup) {  // linear ramp up, reaching the peak on the last warmup step
      const int64_t done = fault_injected("warmup-ramp-starts-at-zero") ? step : step + 1;
      return static_cast<double>(done) / static_cast<double>(warmup);
    }
    const double progress = static_cast<double>(step - warmup) / static_cast<double>(total - warmup);
    return 0.5 * (1 + std::cos(kPi * progress));  // cosine down to 0
  };
}

std::function<double(int64_t)> warmup_linear(int64_t warmup, int64_t total) {
  return [warmup, total](int64_t step) {
    if (step < warmup) return static_cast<double>(step + 1) / static_cast<double>(warmup);
    return std::max(0.0, static_cast<double>(total - step) / static_cast<double>(total - warmup));
  };
}

// ---- LinearLR, SequentialLR ----------------------------------------------------------------

LinearLR::LinearLR(torch::optim::Optimizer& opt, double start_factor, double end_factor, int64_t total_iters)
    : LRScheduler(opt), start_(start_factor), end_(end_factor), total_iters_(total_iters) {
  if (start_factor > 1.0 || start_factor <= 0)
    throw std::invalid_argument(fmt::format("LinearLR: start_factor must be in (0, 1], got {}", start_factor));
  if (end_factor > 1.0 || end_factor < 0)
    throw std::invalid_argument(fmt::format("LinearLR: end_factor must be in [0, 1], got {}", end_factor));
  initial_step();
}

std::vector<double> LinearLR::get_lr() {
  std::vector<double> lrs = group_lrs();
  if (last_epoch_ == 0) {
    for (double& lr : lrs) lr *= start_;
    return lrs;
  }
  if (is_initial_ || last_epoch_ > total_iters_) return lrs;
  const double e = static_cast<double>(last_epoch_), n = static_cast<double>(total_iters_);
  for (double& lr : lrs) lr *= 1.0 + (end_ - start_) / (n * start_ + (e - 1) * (end_ - start_));
  return lrs;
}

std::vector<double> LinearLR::closed_form_lr() {
  std::vector<double> lrs;
  const double reached = static_cast<double>(std::min(total_iters_, last_epoch_));
  for (double base : base_lrs_)
    lrs.push_back(base * (start_ + (end_ - start_) * reached / static_cast<double>(total_iters_)));
  return lrs;
}

SequentialLR::SequentialLR(torch::optim::Optimizer& opt, std::vector<std::unique_ptr<LRScheduler>> schedulers,
                           std::vector<int64_t> milestones)
    : LRScheduler(opt), schedulers_(std::move(schedulers)), milestones_(std::move(milestones)) {
  if (schedulers_.empty()) throw std::invalid_argument("SequentialLR: expects at least one scheduler");
  if (milestones_.size() != schedulers_.size() - 1)
    throw std::invalid_argument(fmt::format("SequentialLR: {} schedulers need {} milestones, got {}",
                                            schedulers_.size(), schedulers_.size() - 1, milestones_.size()));
  for (const auto& s : schedulers_)
    if (&s->opt_ != &opt_) throw std::invalid_argument("SequentialLR: every scheduler must belong to its optimizer");
  // Python's group["initial_lr"]: set by the first scheduler built, the base of all of them.
  base_lrs_ = schedulers_.front()->base_lrs_;
  for (auto& s : schedulers_) s->base_lrs_ = base_lrs_;
  last_epoch_ = 0;
  set_group_lrs(base_lrs_);                      // reset the rates the schedulers' construction moved
  for (auto& s : schedulers_) --s->last_epoch_;  // undo their initial steps
  const auto first =
      static_cast<size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), 0) - milestones_.begin());
  schedulers_[first]->initial_step();
  last_lr_ = schedulers_[first]->get_last_lr();
}

void SequentialLR::step() {
  ++last_epoch_;
  const auto idx =
      static_cast<size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin());
  auto& s = *schedulers_[idx];
  if (idx > 0 && milestones_[idx - 1] == last_epoch_)
    s.update_lr_at(0);
  else
    s.step();
  last_lr_ = s.get_last_lr();
}

void SequentialLR::save(Checkpoint& ck, const std::string& prefix) const {
  LRScheduler::save(ck, prefix);
  for (size_t i = 0; i < schedulers_.size(); ++i) schedulers_[i]->save(ck, fmt::format("{}/{}", prefix, i));
}

void SequentialLR::load(const Checkpoint& ck, const std::string& prefix) {
  LRScheduler::load(ck, prefix);
  for (size_t i = 0; i < schedulers_.size(); ++i) schedulers_[i]->load(ck, fmt::format("{}/{}", prefix, i));
}

std::unique_ptr<SequentialLR> warmup_linear_sequential(torch::optim::Optimizer& opt, int64_t warmup, int64_t total) {
  if (warmup < 2 || total <= warmup)
    throw std::invalid_argument(fmt::format("warmup-linear: need 2 <= warmup < total, got {} and {}", warmup, total));
  std::vector<std::unique_ptr<LRScheduler>> parts;
  parts.push_back(std::make_unique<LinearLR>(opt, 1.0 / static_cast<double>(warmup), 1.0, warmup - 1));
  parts.push_back(std::make_unique<LinearLR>(opt, 1.0, 0.0, total - warmup));
  return std::make_unique<SequentialLR>(opt, std::move(parts), std::vector<int64_t>{warmup});
}

// ---- StepLR --------------------------------------------------------------------------------

StepLR::StepLR(torch::optim::Optimizer& opt, int64_t step_size, double gamma)
    : LRScheduler(opt), step_size_(step_size), gamma_(gamma) {
  if (step_size <= 0) throw std::invalid_argument(fmt::format("StepLR: step_size must be > 0, got {}", step_size));
  initial_step();
}

std::vector<double> StepLR::get_lr() {
  std::vector<double> lrs = group_lrs();
  if (last_epoch_ == 0 || last_epoch_ % step_size_ != 0) return lrs;
  for (double& lr : lrs) lr *= gamma_;
  return lrs;
}

// ---- CosineAnnealingLR ---------------------------------------------------------------------

CosineAnnealingLR::CosineAnnealingLR(torch::optim::Optimizer& opt, int64_t t_max, double eta_min)
    : LRScheduler(opt), t_max_(t_max), eta_min_(eta_min) {
  if (t_max <= 0) throw std::invalid_argument(fmt::format("CosineAnnealingLR: T_max must be > 0, got {}", t_max));
  initial_step();
}

std::vector<double> CosineAnnealingLR::get_lr() {
  std::vector<double> lrs = group_lrs();
  const double T = static_cast<double>(t_max_), e = static_cast<double>(last_epoch_);
  if (is_initial_) return lrs;
  for (size_t i = 0; i < lrs.size(); ++i) {
    const double base = base_lrs_[i];
    if (step_count_ == 1 && last_epoch_ > 0) {
      lrs[i] = eta_min_ + (base - eta_min_) * (1 + std::cos(e * kPi / T)) / 2;
    } else if ((last_epoch_ - 1 - t_max_) % (2 * t_max_) == 0) {
      lrs[i] = lrs[i] + (base - eta_min_) * (1 - std::cos(kPi / T)) / 2;
    } else {
      lrs[i] = (1 + std::cos(kPi * e / T)) / (1 + std::cos(kPi * (e - 1) / T)) * (lrs[i] - eta_min_) + eta_min_;
    }
  }
  return lrs;
}

// ---- OneCycleLR ----------------------------------------------------------------------------

namespace {
enum { kInitialLr = 0, kMaxLr = 1, kMinLr = 2, kMaxMomentum = 3, kBaseMomentum = 4 };

// Reads the momentum that OneCycleLR cycles: beta1 for Adam/AdamW, momentum for SGD.
bool has_momentum(torch::optim::OptimizerOptions& o) {
  return dynamic_cast<torch::optim::AdamWOptions*>(&o) || dynamic_cast<torch::optim::AdamOptions*>(&o) ||
         dynamic_cast<torch::optim::SGDOptions*>(&o);
}
}  // namespace

OneCycleLR::OneCycleLR(torch::optim::Optimizer& opt, OneCycleOptions o) : LRScheduler(opt), o_(o) {
  if (o.total_steps <= 0)
    throw std::invalid_argument(
        fmt::format("OneCycleLR: expected positive integer total_steps, but got {}", o.total_steps));
  if (o.pct_start < 0 || o.pct_start > 1)
    throw std::invalid_argument(
        fmt::format("OneCycleLR: expected float between 0 and 1 pct_start, but got {}", o.pct_start));
  const double T = static_cast<double>(o.total_steps);
  if (o.three_phase) {
    phases_ = {{o.pct_start * T - 1, kInitialLr, kMaxLr, kMaxMomentum, kBaseMomentum},
               {2 * o.pct_start * T - 2, kMaxLr, kInitialLr, kBaseMomentum, kMaxMomentum},
               {T - 1, kInitialLr, kMinLr, kMaxMomentum, kMaxMomentum}};
  } else {
    phases_ = {{o.pct_start * T - 1, kInitialLr, kMaxLr, kMaxMomentum, kBaseMomentum},
               {T - 1, kMaxLr, kMinLr, kBaseMomentum, kMaxMomentum}};
  }
  auto& groups = opt.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) {
    GroupParams g;
    g.v[kInitialLr] =
        fault_injected("onecycle-starts-at-optimizer-lr") ? groups[i].options().get_lr() : o.max_lr / o.div_factor;
    g.v[kMaxLr] = o.max_lr;
    g.v[kMinLr] = fault_injected("onecycle-no-annihilation") ? g.v[kInitialLr] : g.v[kInitialLr] / o.final_div_factor;
    g.v[kMaxMomentum] = o.max_momentum;
    g.v[kBaseMomentum] = o.base_momentum;
    groups_.push_back(g);
    if (o.cycle_momentum) {
      if (!has_momentum(groups[i].options()))
        throw std::invalid_argument("OneCycleLR: optimizer must support momentum or beta1 with cycle_momentum enabled");
      set_momentum(i, o.max_momentum);
    }
  }
  base_lrs_.clear();
  for (const auto& g : groups_) base_lrs_.push_back(g.v[kInitialLr]);
  initial_step();
}

void OneCycleLR::set_momentum(size_t group, double m) {
  auto& options = opt_.param_groups()[group].options();
  if (auto* a = dynamic_cast<torch::optim::AdamWOptions*>(&options)) {
    a->betas(std::make_tuple(m, std::get<1>(a->betas())));
  } else if (auto* a = dynamic_cast<torch::optim::AdamOptions*>(&options)) {
    a->betas(std::make_tuple(m, std::get<1>(a->betas())));
  } else if (auto* s = dynamic_cast<torch::optim::SGDOptions*>(&options)) {
    s->momentum(m);
  }
}

double OneCycleLR::anneal(double start, double end, double pct) const {
  if (o_.anneal == OneCycleOptions::Anneal::kCos) {
    const double cos_out = std::cos(kPi * pct) + 1;
    return end + (start - end) / 2.0 * cos_out;
  }
  return (end - start) * pct + start;
}

std::vector<double> OneCycleLR::get_lr() {
  const int64_t step_num = last_epoch_;
  if (step_num > o_.total_steps)
    throw std::out_of_range(fmt::format("OneCycleLR: tried to step {} times. The specified number of total steps is {}",
                                        step_num, o_.total_steps));
  std::vector<double> lrs;
  for (size_t gi = 0; gi < groups_.size(); ++gi) {
    const GroupParams& g = groups_[gi];
    double start_step = 0.0, lr = 0.0, momentum = 0.0;
    for (size_t i = 0; i < phases_.size(); ++i) {
      const Phase& p = phases_[i];
      if (static_cast<double>(step_num) <= p.end_step || i == phases_.size() - 1) {
        const double pct = (static_cast<double>(step_num) - start_step) / (p.end_step - start_step);
        lr = anneal(g.v[p.start_lr], g.v[p.end_lr], pct);
        momentum = anneal(g.v[p.start_m], g.v[p.end_m], pct);
        break;
      }
      start_step = p.end_step;
    }
    lrs.push_back(lr);
    if (o_.cycle_momentum) set_momentum(gi, momentum);
  }
  return lrs;
}

void OneCycleLR::save(Checkpoint& ck, const std::string& prefix) const {
  LRScheduler::save(ck, prefix);
  std::vector<double> flat;
  for (const auto& g : groups_) flat.insert(flat.end(), std::begin(g.v), std::end(g.v));
  ck.put(prefix + "/group_params", doubles(flat));
}

void OneCycleLR::load(const Checkpoint& ck, const std::string& prefix) {
  LRScheduler::load(ck, prefix);
  const auto flat = from_doubles(ck.tensor(prefix + "/group_params"), groups_.size() * 5, ck, prefix + "/group_params");
  for (size_t i = 0; i < groups_.size(); ++i) std::copy_n(flat.begin() + 5 * i, 5, groups_[i].v);
}

// ---- ReduceLROnPlateau ---------------------------------------------------------------------

ReduceLROnPlateau::ReduceLROnPlateau(torch::optim::Optimizer& opt, PlateauOptions o) : opt_(opt), o_(o) {
  if (o.factor >= 1.0) throw std::invalid_argument("ReduceLROnPlateau: factor should be < 1.0");
  best_ = o.mode == PlateauOptions::Mode::kMin ? std::numeric_limits<double>::infinity()
                                               : -std::numeric_limits<double>::infinity();
  for (const auto& g : opt_.param_groups()) last_lr_.push_back(g.options().get_lr());
}

bool ReduceLROnPlateau::is_better(double a, double best) const {
  const bool min = o_.mode == PlateauOptions::Mode::kMin;
  if (o_.threshold_mode == PlateauOptions::ThresholdMode::kRel)
    return min ? a < best * (1.0 - o_.threshold) : a > best * (o_.threshold + 1.0);
  return min ? a < best - o_.threshold : a > best + o_.threshold;
}

void ReduceLROnPlateau::step(double metric) {
  last_epoch_ += 1;
  if (is_better(metric, best_)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    num_bad_epochs_ += 1;
  }
  if (cooldown_counter_ > 0) {
    cooldown_counter_ -= 1;
    num_bad_epochs_ = 0;  // bad epochs in cooldown are ignored
  }
  const int64_t patience = fault_injected("plateau-patience-off-by-one") ? o_.patience - 1 : o_.patience;
  if (num_bad_epochs_ > patience) {
    for (auto& g : opt_.param_groups()) {
      const double old_lr = g.options().get_lr();
      const double new_lr = std::max(old_lr * o_.factor, o_.min_lr);
      if (old_lr - new_lr > o_.eps) g.options().set_lr(new_lr);
    }
    cooldown_counter_ = o_.cooldown;
    num_bad_epochs_ = 0;
  }
  last_lr_.clear();
  for (const auto& g : opt_.param_groups()) last_lr_.push_back(g.options().get_lr());
}

void ReduceLROnPlateau::save(Checkpoint& ck, const std::string& prefix) const {
  ck.put(prefix + "/best", best_);
  ck.put(prefix + "/num_bad_epochs", num_bad_epochs_);
  ck.put(prefix + "/cooldown_counter", cooldown_counter_);
  ck.put(prefix + "/last_epoch", last_epoch_);
  ck.put(prefix + "/last_lr", doubles(last_lr_));
}

void ReduceLROnPlateau::load(const Checkpoint& ck, const std::string& prefix) {
  best_ = ck.real(prefix + "/best");
  num_bad_epochs_ = ck.integer(prefix + "/num_bad_epochs");
  cooldown_counter_ = ck.integer(prefix + "/cooldown_counter");
  last_epoch_ = ck.integer(prefix + "/last_epoch");
  last_lr_ = from_doubles(ck.tensor(prefix + "/last_lr"), last_lr_.size(), ck, prefix + "/last_lr");
}

}  // namespace trainproof
