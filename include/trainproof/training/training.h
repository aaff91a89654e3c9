// Small training-loop rules the documents state: how a micro-batch's loss is weighted
// under gradient accumulation, and early stopping on a validation metric.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "trainproof/training/checkpoint.h"

namespace trainproof {

enum class Accumulation {
  kSum,            // no scaling: the bug, gradients come out count times too large
  kDivideByCount,  // loss / count: exact when micro-batches are of equal size
  kWeightBySize,   // loss * micro_size / total: exact for uneven splits too (Practice p3)
};

// The factor a micro-batch's mean loss is multiplied by before backward().
double accumulation_weight(Accumulation rule, int64_t micro_size, int64_t count, int64_t total);

// torch.nn.utils.clip_grad_norm_ as Python runs it (foreach norms, then the norm of the
// norms; scale by min(1, max_norm / (total + 1e-6))). Returns the norm before clipping.
double clip_grad_norm_(const std::vector<torch::Tensor>& parameters, double max_norm);

// The training-loop document: "Exclude biases and normalization weights from weight decay via
// parameter groups". Group 0 decays (`weight_decay`): the matrices and embeddings. Group 1
// does not: every parameter with one dimension or none, which is every bias and every
// normalization weight. The options (lr, betas, ...) are the optimizer's defaults.
std::vector<torch::optim::OptimizerParamGroup> weight_decay_groups(const torch::nn::Module& model,
                                                                   const torch::optim::AdamWOptions& options);

// The training-loop document's first best practice: "confirm the model can drive the loss
// near zero on one small batch. If it can't, there's a bug in the model, loss, or data
// pipeline." `loss_of_batch` runs the forward pass on the batch and returns the loss; the
// check zeroes the gradients, backpropagates and steps up to `max_steps` times.
struct OverfitResult {
  bool reached = false;        // the loss went below the threshold
  int64_t steps = 0;           // optimizer steps taken (when reached: the first step below)
  std::vector<double> losses;  // the loss before each step
  std::string diagnosis;       // when not reached: what it suggests
};
OverfitResult overfit_one_batch(const std::function<torch::Tensor()>& loss_of_batch, torch::optim::Optimizer& opt,
                                double threshold, int64_t max_steps);

// Practice p2: stop after `patience` epochs in a row without a new best.
class EarlyStopping {
 public:
  enum class Verdict { kNewBest, kNoImprovement, kStop };
  explicit EarlyStopping(int64_t patience) : patience_(patience) {}
  Verdict step(double loss);
  double best() const { return best_; }
  int64_t bad_epochs() const { return bad_epochs_; }
  int64_t patience() const { return patience_; }
  void save(Checkpoint& ck, const std::string& prefix) const;
  void load(const Checkpoint& ck, const std::string& prefix);

 private:
  int64_t patience_;
  double best_ = std::numeric_limits<double>::infinity();
  int64_t bad_epochs_ = 0;
};

}  // namespace trainproof
