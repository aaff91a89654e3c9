// Learning-rate schedulers that LibTorch's C++ API lacks, written to follow PyTorch's
// Python implementations (torch/optim/lr_scheduler.py) step for step, including their
// chainable (recursive) forms, so values agree to the last bit.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "trainproof/training/checkpoint.h"
#include "trainproof/training/schedule_options.h"

namespace trainproof {

// Base of the per-step/per-epoch schedulers. As in PyTorch, constructing one performs an
// initial step that sets each group's lr to the schedule's value at step 0; call step()
// after optimizer.step().
class LRScheduler {
 public:
  virtual ~LRScheduler() = default;
  virtual void step();
  // The rates in force now: what the next optimizer.step() will use.
  const std::vector<double>& get_last_lr() const { return last_lr_; }
  int64_t last_epoch() const { return last_epoch_; }

  virtual void save(Checkpoint& ck, const std::string& prefix) const;
  virtual void load(const Checkpoint& ck, const std::string& prefix);

 protected:
  explicit LRScheduler(torch::optim::Optimizer& opt);
  void initial_step();  // the derived constructor calls this last, as Python's base __init__ does
  virtual std::vector<double> get_lr() = 0;
  // Python's _get_closed_form_lr, used by step(epoch); schedulers without one recompute get_lr().
  virtual std::vector<double> closed_form_lr() { return get_lr(); }
  // Python's _update_lr(epoch): jump to `epoch` (SequentialLR restarts a scheduler at 0 this way).
  void update_lr_at(int64_t epoch);
  std::vector<double> group_lrs() const;
  void set_group_lrs(const std::vector<double>& lrs);

  friend class SequentialLR;

  torch::optim::Optimizer& opt_;
  std::vector<double> base_lrs_;
  int64_t last_epoch_ = -1;
  int64_t step_count_ = 0;
  bool is_initial_ = false;
  std::vector<double> last_lr_;
};

class LambdaLR : public LRScheduler {
 public:
  LambdaLR(torch::optim::Optimizer& opt, std::function<double(int64_t)> lr_lambda);

 protected:
  std::vector<double> get_lr() override;

 private:
  std::function<double(int64_t)> lambda_;
};

// The documents' schedule for LambdaLR: linear warmup to 1 over `warmup` steps, then a
// cosine from 1 down to 0 at `total`.
std::function<double(int64_t)> warmup_cosine(int64_t warmup, int64_t total);

// Linear warmup to 1 over `warmup` steps, then linear decay to 0 at `total` (the training-loop
// document's other default: "warmup then cosine or linear decay").
std::function<double(int64_t)> warmup_linear(int64_t warmup, int64_t total);

// LinearLR: the factor moves linearly from start_factor to end_factor over total_iters steps.
class LinearLR : public LRScheduler {
 public:
  LinearLR(torch::optim::Optimizer& opt, double start_factor = 1.0 / 3, double end_factor = 1.0,
           int64_t total_iters = 5);

 protected:
  std::vector<double> get_lr() override;
  std::vector<double> closed_form_lr() override;

 private:
  double start_, end_;
  int64_t total_iters_;
};

// SequentialLR: runs `schedulers[i]` from milestones[i-1] on, restarting each at epoch 0.
// As in Python, the schedulers are built on the same optimizer first, in order (the first
// one built saw the optimizer's initial rates, which all of them take as their base).
class SequentialLR : public LRScheduler {
 public:
  SequentialLR(torch::optim::Optimizer& opt, std::vector<std::unique_ptr<LRScheduler>> schedulers,
               std::vector<int64_t> milestones);
  void save(Checkpoint& ck, const std::string& prefix) const override;
  void load(const Checkpoint& ck, const std::string& prefix) override;
  void step() override;

 protected:
  std::vector<double> get_lr() override { return group_lrs(); }

 private:
  std::vector<std::unique_ptr<LRScheduler>> schedulers_;
  std::vector<int64_t> milestones_;
};

// The same schedule as LambdaLR(warmup_linear(warmup, total)), built the PyTorch-native way:
// LinearLR(1/warmup -> 1 over warmup-1 steps), then LinearLR(1 -> 0 over total-warmup steps).
std::unique_ptr<SequentialLR> warmup_linear_sequential(torch::optim::Optimizer& opt, int64_t warmup, int64_t total);

class StepLR : public LRScheduler {
 public:
  StepLR(torch::optim::Optimizer& opt, int64_t step_size, double gamma = 0.1);

 protected:
  std::vector<double> get_lr() override;

 private:
  int64_t step_size_;
  double gamma_;
};

class CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(torch::optim::Optimizer& opt, int64_t t_max, double eta_min = 0.0);

 protected:
  std::vector<double> get_lr() override;

 private:
  int64_t t_max_;
  double eta_min_;
};

// OneCycleLR; with cycle_momentum it also cycles SGD's momentum or Adam/AdamW's beta1.
class OneCycleLR : public LRScheduler {
 public:
  OneCycleLR(torch::optim::Optimizer& opt, OneCycleOptions o);
  void save(Checkpoint& ck, const std::string& prefix) const override;
  void load(const Checkpoint& ck, const std::string& prefix) override;

 protected:
  std::vector<double> get_lr() override;

 private:
  struct Phase {
    double end_step;
    int start_lr, end_lr, start_m, end_m;  // indices into GroupParams::v
  };
  struct GroupParams {
    double v[5];  // initial_lr, max_lr, min_lr, max_momentum, base_momentum
  };
  double anneal(double start, double end, double pct) const;
  void set_momentum(size_t group, double m);

  OneCycleOptions o_;
  std::vector<Phase> phases_;
  std::vector<GroupParams> groups_;
};

// ReduceLROnPlateau: stepped once per validation with the metric.
class ReduceLROnPlateau {
 public:
  ReduceLROnPlateau(torch::optim::Optimizer& opt, PlateauOptions o);
  void step(double metric);
  const std::vector<double>& get_last_lr() const { return last_lr_; }
  int64_t num_bad_epochs() const { return num_bad_epochs_; }
  double best() const { return best_; }

  void save(Checkpoint& ck, const std::string& prefix) const;
  void load(const Checkpoint& ck, const std::string& prefix);

 private:
  bool is_better(double a, double best) const;
  torch::optim::Optimizer& opt_;
  PlateauOptions o_;
  double best_;
  int64_t num_bad_epochs_ = 0, cooldown_counter_ = 0, last_epoch_ = 0;
  std::vector<double> last_lr_;
};

}  // namespace trainproof
