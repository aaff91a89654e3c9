// See probe_findings.h: the documents' mistakes in the script itself (document 003, "Common
// mistakes"), and what a checkpoint holds.
#include "src/check/probe_findings.h"
#include "trainproof/check/findings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/dcp.h"
#include "src/check/probe_records.h"

namespace trainproof {

using namespace probe_records;

namespace {

double number_or(const ProbeFact& f, const std::string& key, double fallback) {
  const std::string v = data_or(f, key);
  if (v.empty() || v == "null") return fallback;
  return std::strtod(v.c_str(), nullptr);
}

}  // namespace

std::vector<Finding> unsafe_loads(const RecordedTrace& run) {
  for (const auto& op : run.file_ops)
    if (op.kind == "load" && op.weights_only == "false")
      return {make_finding(finding_id::kUnsafeTorchLoad, -1, op.where,
                           "torch.load(..., weights_only=False) runs whatever code the file's pickle holds: load "
                           "checkpoints with weights_only=True")};
  return {};
}

namespace {

// What one save holds: a DCP checkpoint's, as its metadata says (dcp.h); a torch.save's, what the
// saved object holds.
std::set<std::string> own_holds(const RecordedTrace& run, const ProbeFileOp& save) {
  if (auto held = dcp_saved_holds(run, save)) return *held;
  return {save.holds.begin(), save.holds.end()};
}

}  // namespace

std::set<std::string> checkpoint_holds(const RecordedTrace& run, const ProbeFileOp& save) {
  std::set<std::string> holds = own_holds(run, save);
  if (save.path.empty()) return holds;
  const std::string folder = checkpoint_folder(save);
  // Written together: saved at the same step of the same start into the same folder, into a DCP
  // folder, or beside one.
  for (const auto& op : run.file_ops) {
    if (op.kind != "save" || op.start != save.start || op.seq != save.seq || &op == &save || op.path.empty()) continue;
    if (checkpoint_folder(op) == folder || parent_of(op.path) == folder || checkpoint_folder(op) == save.path ||
        beside_dcp_folder(op, save)) {
      const std::set<std::string> more = own_holds(run, op);
      holds.insert(more.begin(), more.end());
    }
  }
  // A folder of its own named by the step (checkpoint-8/, step_8/) holds the step in its name.
  if (save.seq > 0 && names_number(name_of(folder), save.seq)) holds.insert("step");
  return holds;
}

std::vector<std::string> checkpoint_lacks(const RecordedTrace& run, const ProbeFileOp& save) {
  const std::set<std::string> holds = checkpoint_holds(run, save);
  std::vector<std::string> missing;
  for (const auto& need : save.needs)
    if (!holds.count(need)) missing.push_back(need);
  return missing;
}

std::vector<Finding> seed_drawn_anew(const RecordedTrace& a, const RecordedTrace& b) {
  const auto seeded = [](const RecordedTrace& t) -> const ProbeFact* {
    for (const auto& f : t.facts)
      if (f.fact == "torch-seeded" && f.start == 1) return &f;
    return nullptr;
  };
  const ProbeFact *x = seeded(a), *y = seeded(b);
  if (!x || !y || data_or(*x, "seed") == data_or(*y, "seed")) return {};
  const std::string drawn = data_or(*x, "drawn_at");
  return {make_finding(
      finding_id::kUnseededRng, -1, drawn.empty() ? x->where : drawn,
      fmt::format("torch.manual_seed() ({}) was given {} in one run and {} in the other: the seed {}differs "
                  "in every run (random's functions, the time, the pid, os.urandom), so every draw after it "
                  "does too; seed with a fixed value, or pass one in and log it",
                  x->where, data_or(*x, "seed"), data_or(*y, "seed"),
                  drawn.empty() ? std::string() : fmt::format("drawn at {} ", drawn)))};
}

namespace {

// What one kind of the probe's facts names, if anything: each a function of the fact and the step
// it came at (the fact's seq + 1).
std::optional<Finding> zero_grad_missing(const ProbeFact& f, int64_t step) {
  return make_finding(finding_id::kZeroGradMissing, step, f.where,
                      fmt::format("gradients left by step {} were still in .grad when the next backward started, so "
                                  "they add up across steps: call optimizer.zero_grad() once per optimizer step "
                                  "(accumulating micro-batches within one step is fine)",
                                  f.seq));
}

std::optional<Finding> eval_mode_forgotten(const ProbeFact& f, int64_t step) {
  return make_finding(finding_id::kEvalModeForgotten, step, f.where,
                      fmt::format("a forward under torch.no_grad() with {} in training mode: call model.eval() before "
                                  "validating (dropout stays on, BatchNorm keeps updating its running statistics)",
                                  data_or(f, "modules")));
}

std::optional<Finding> grad_forward_in_eval_mode(const ProbeFact& f, int64_t step) {
  const bool backward = data_or(f, "backward") == "true";
  const std::string stochastic = data_or(f, "stochastic");
  // Left in eval mode: after the module trained, or after a validation (nanoGPT validates
  // before its first step: a model never seen training is in eval mode from then on).
  const bool left = data_or(f, "seen_training") == "true" || data_or(f, "after_validation") == "true";
  if (backward && left && !stochastic.empty())
    return make_finding(finding_id::kTrainModeForgotten, step, f.where,
                        fmt::format("this step trained with {} in eval mode, left there by an earlier validation: "
                                    "call model.train() after validating",
                                    stochastic));
  if (!backward)
    return make_finding(finding_id::kValidationWithGrad, step, f.where,
                        "a forward in eval mode with grad enabled and no backward after it: validate under "
                        "torch.no_grad() (it keeps every activation for a backward that never comes)");
  return std::nullopt;
}

std::optional<Finding> softmax_before_cross_entropy(const ProbeFact& f, int64_t step) {
  const std::string dtype = data_or(f, "dtype");
  const double tol = dtype == "torch.float16" || dtype == "torch.bfloat16" ? 1e-2 : 1e-3;
  const double dev = number_or(f, "row_sum_dev", 1);
  const double smallest = number_or(f, "min", -1);
  if (smallest < 0 || dev > tol) return std::nullopt;
  return make_finding(finding_id::kSoftmaxBeforeCrossEntropy, step, f.where,
                      fmt::format("cross_entropy was given probabilities (every value >= 0, every row summing to 1 "
                                  "within {:.2g}): it applies log_softmax itself; pass the logits",
                                  dev));
}

std::optional<Finding> decay_on_bias_or_norm(const ProbeFact& f, int64_t) {
  std::stringstream groups(data_or(f, "groups"));
  int i = 0;
  for (std::string g; std::getline(groups, g, ';'); ++i) {
    double wd = 0;
    int one_dim = 0, n = 0;
    if (std::sscanf(g.c_str(), "%lf/%d/%d", &wd, &one_dim, &n) == 3 && wd > 0 && one_dim > 0)
      return make_finding(finding_id::kWeightDecayOnBiasOrNorm, -1, f.where,
                          fmt::format("param group {} applies weight_decay {:g} to {} one-dimensional parameter(s) of "
                                      "its {} (biases, norm weights): give them a group with weight_decay 0",
                                      i, wd, one_dim, n));
  }
  return std::nullopt;
}

std::optional<Finding> clip_before_unscale(const ProbeFact& f, int64_t step) {
  return make_finding(finding_id::kClipBeforeUnscale, step, f.where,
                      "clip_grad_norm_ ran on gradients an enabled GradScaler had scaled, so the threshold applies to "
                      "scaled values: call scaler.unscale_(optimizer) before clipping");
}

std::optional<Finding> scheduler_per_epoch(const ProbeFact& f, int64_t) {
  const double k = number_or(f, "scheduler_steps", 0);
  const double n = number_or(f, "optimizer_steps", 0);
  const double span = number_or(f, "span", 0);
  // Sized in this run's steps: its span is the run's optimizer steps (a per-step schedule, stepped
  // per epoch, ends where the run does). A per-epoch schedule is sized in epochs; cut short by a
  // short run, its span is any number of epochs, and tells nothing: no finding then.
  const bool sized_in_steps = span >= 1.5 * k && std::abs(span - n) <= std::max(1.0, 0.05 * n);
  if (n < 4 || 2 * k > n || !sized_in_steps) return std::nullopt;
  return make_finding(finding_id::kSchedulerPerEpoch, -1, f.where,
                      fmt::format("{} stepped {:g} times for {:g} optimizer steps, and its schedule is sized for {:g} "
                                  "steps, the run's: a per-step schedule stepped per epoch; call scheduler.step() "
                                  "after every optimizer.step()",
                                  data_or(f, "scheduler"), k, n, span));
}

std::optional<Finding> scheduler_before_optimizer(const ProbeFact& f, int64_t step) {
  return make_finding(finding_id::kSchedulerBeforeOptimizer, step, f.where,
                      "scheduler.step() ran before the first optimizer.step(): the schedule's first value is skipped; "
                      "step the scheduler after the optimizer");
}

std::optional<Finding> random_before_seed(const ProbeFact& f, int64_t) {
  return make_finding(finding_id::kUnseededRng, -1, f.where,
                      "random numbers were drawn from torch's global RNG before this torch.manual_seed(): seed first, "
                      "then build the model and the data");
}

std::optional<Finding> random_unseeded(const ProbeFact& f, int64_t step) {
  return make_finding(finding_id::kUnseededRng, step, f.where,
                      "random numbers were drawn from torch's global RNG (first here) and torch.manual_seed() was "
                      "never called: seed it before building the model and the data");
}

// "a, b, c" of a fact's comma-separated names, "and N more" where it names fewer than `count`.
std::string names_of(const ProbeFact& f, const std::string& key, double count) {
  std::string names = data_or(f, key);
  std::replace(names.begin(), names.end(), ',', ' ');
  std::istringstream in(names);
  std::vector<std::string> list;
  for (std::string n; in >> n;) list.push_back(n);
  const auto more = static_cast<long>(count) - static_cast<long>(list.size());
  return fmt::format("{}{}", fmt::join(list, ", "), more > 0 ? fmt::format(" and {} more", more) : "");
}

std::optional<Finding> steps_change_nothing(const ProbeFact& f, int64_t) {
  const double params = number_or(f, "params", 0);
  return make_finding(
      finding_id::kOptimizerStepChangesNothing, -1, f.where,
      fmt::format("{:g} steps of the optimizer built here changed none of the {:g} parameter(s) it holds ({}){}: the "
                  "model never learns, whatever the loss shows; build the optimizer over the parameters that train",
                  number_or(f, "steps", 0), params, names_of(f, "names", params),
                  number_or(f, "with_grad", 0) == 0 ? ", and none of them ever got a gradient (frozen, or outside "
                                                      "the loss's graph)"
                                                    : ""));
}

std::optional<Finding> params_without_grad(const ProbeFact& f, int64_t) {
  const double frozen = number_or(f, "frozen_count", 0), unused = number_or(f, "unused_count", 0);
  if (frozen > 0)
    return make_finding(finding_id::kOptimizerParamWithoutGrad, -1, f.where,
                        fmt::format("{:g} parameter(s) of the optimizer built here required a gradient when it was "
                                    "built, were frozen after (requires_grad False) and never got one: {}; they "
                                    "never train: freeze before building the optimizer, or unfreeze them",
                                    frozen, names_of(f, "frozen", frozen)));
  Finding advice = make_finding(finding_id::kOptimizerParamWithoutGrad, -1, f.where,
                                fmt::format("{:g} parameter(s) of the optimizer built here never got a gradient in "
                                            "this run: {}: detached from the loss, or on a path the run never took "
                                            "(an unused head, an expert no batch was routed to)",
                                            unused, names_of(f, "unused", unused)));
  advice.advice = true;  // an unused path is not shown to be a mistake by one run
  return advice;
}

std::optional<Finding> trained_in_no_optimizer(const ProbeFact& f, int64_t) {
  const double count = number_or(f, "count", 0);
  return make_finding(finding_id::kTrainedParamInNoOptimizer, -1, f.where,
                      fmt::format("{:g} parameter(s) get gradients, but no optimizer holds them (the first optimizer "
                                  "is built here): {}; they never train: add them to the optimizer, or set "
                                  "requires_grad=False",
                                  count, names_of(f, "names", count)));
}

std::optional<Finding> train_op_in_eval(const ProbeFact& f, int64_t step) {
  const std::string op = data_or(f, "op");
  const std::string does = op == "batch_norm" ? "normalizes by the batch and updates its running statistics"
                           : op == "rrelu"    ? "draws random slopes"
                                              : "drops activations at random";
  return make_finding(finding_id::kTrainOpInEvalMode, step, f.where,
                      fmt::format("{} is in eval mode, but calls {} with {}: it {} at validation and inference; pass "
                                  "the module's mode ({})",
                                  data_or(f, "module"), op, data_or(f, "flag"), does,
                                  op == "scaled_dot_product_attention" ? "dropout_p=p if self.training else 0.0"
                                                                       : "training=self.training"));
}

// The probe's facts (probe/*.py) and what each names.
const std::map<std::string, std::optional<Finding> (*)(const ProbeFact&, int64_t), std::less<>> kFactFindings = {
    {"backward-onto-last-step-grads", zero_grad_missing},
    {"no-grad-forward-in-train-mode", eval_mode_forgotten},
    {"grad-forward-in-eval-mode", grad_forward_in_eval_mode},
    {"cross-entropy-input", softmax_before_cross_entropy},
    {"param-groups", decay_on_bias_or_norm},
    {"clip-while-scaled", clip_before_unscale},
    {"schedule-at-exit", scheduler_per_epoch},
    {"scheduler-step-before-optimizer-step", scheduler_before_optimizer},
    {"torch-random-before-seed", random_before_seed},
    {"torch-random-unseeded", random_unseeded},
    {"optimizer-steps-change-nothing", steps_change_nothing},
    {"optimizer-params-without-grad", params_without_grad},
    {"grad-params-in-no-optimizer", trained_in_no_optimizer},
    {"train-op-in-eval-mode", train_op_in_eval},
};

// The first checkpoint the run's start `start` saved with steps after it (judged there only).
const ProbeFileOp* first_checkpoint(const RecordedTrace& run, int start) {
  for (const auto& op : run.file_ops)
    if (op.start == start && op.kind == "save" && op.checkpoint &&
        std::any_of(run.probe.begin(), run.probe.end(),
                    [&](const ProbeStep& p) { return p.start == start && p.seq > op.seq; }))
      return &op;
  return nullptr;
}

// The first checkpoint, where it lacks state the run has.
std::optional<Finding> first_checkpoint_lacking(const RecordedTrace& run, int start) {
  const ProbeFileOp* op = first_checkpoint(run, start);
  if (!op) return std::nullopt;
  const std::vector<std::string> missing = checkpoint_lacks(run, *op);
  if (missing.empty()) return std::nullopt;
  return make_finding(finding_id::kCheckpointMissingState, op->seq, op->where,
                      fmt::format("the checkpoint saved after step {} lacks {} of the state this run has ({}): a "
                                  "resume from it cannot continue exactly; save them all",
                                  op->seq, fmt::join(missing, ", "), fmt::join(op->needs, ", ")));
}

}  // namespace

std::vector<std::string> first_checkpoint_lacks(const RecordedTrace& run) {
  const ProbeFileOp* op = first_checkpoint(run, first_start(run));
  return op ? checkpoint_lacks(run, *op) : std::vector<std::string>{};
}

std::vector<Finding> script_findings(const RecordedTrace& run) {
  std::vector<Finding> out;
  const int start = first_start(run);
  std::set<std::string> named;
  const auto add = [&](Finding f) {
    if (named.insert(f.id).second) out.push_back(std::move(f));
  };
  for (const auto& f : run.facts) {
    const auto judge = kFactFindings.find(f.fact);
    if (f.start != start || judge == kFactFindings.end()) continue;
    if (auto finding = judge->second(f, f.seq + 1)) add(std::move(*finding));
  }
  for (auto& f : unsafe_loads(run)) add(std::move(f));
  if (auto f = first_checkpoint_lacking(run, start)) add(std::move(*f));
  return out;
}

}  // namespace trainproof
