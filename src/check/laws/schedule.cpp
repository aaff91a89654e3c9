// The law of the schedule (--expect-lr): every step's recorded lr is the schedule's, with the
// usual culprits named where it is not.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "src/check/checking.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/tolerance.h"

namespace trainproof {

Law schedule_law(const RecordedTrace& t, const CheckOptions& o) {
  const std::string name =
      law_heading(law::kSchedule, fmt::format("every step's recorded lr is {}'s", o.expect_lr_spec));
  std::vector<double> got;
  std::vector<int64_t> steps;
  for (const auto& [step, values] : t.steps) {
    const auto it = values.find("lr");
    if (it == values.end())
      return {name, false,
              fmt::format("step {} records no lr: log the rate each step used, rec.log(step, lr=...)", step)};
    got.push_back(it->second);
    steps.push_back(step);
  }
  const std::vector<double>& want = o.expect_lr;
  // Equal up to the order of the formula's floating-point operations (a Python lambda and
  // trainproof's C++ one round differently); any real mistake moves the rate by far more.
  const Tolerance tol = Tolerance::ulp(4) | Tolerance::rel(1e-9);
  const auto equal_from = [&](size_t shift_got, size_t shift_want) {
    for (size_t i = 0; i + shift_got < got.size() && i + shift_want < want.size(); ++i)
      if (!tol.accepts(want[i + shift_want], got[i + shift_got], DType::kFloat64)) return false;
    return true;
  };
  const size_t n = std::min(got.size(), want.size());
  for (size_t i = 0; i < n; ++i) {
    if (tol.accepts(want[i], got[i], DType::kFloat64)) continue;
    std::string hint;
    size_t same = i;  // how long the recorded rate stays put from here
    while (same + 1 < got.size() && got[same + 1] == got[i]) ++same;
    if (equal_from(0, 1))
      hint =
          "; the recorded rates are the schedule's one step early: lr logged after scheduler.step(), or one "
          "scheduler.step() too many before training";
    else if (equal_from(1, 0))
      hint = "; the recorded rates are the schedule's one step late: an off-by-one in the lambda or the step count";
    else if (same > i)
      hint = fmt::format(
          "; the recorded rate stays at {:.9g} for steps {} to {}: a per-step scheduler stepped per "
          "epoch?",
          got[i], steps[i], steps[same]);
    return {name, false,
            fmt::format("first at step {} (record {} of {}): lr {:.9g}, the schedule gives {:.9g}{}", steps[i], i + 1,
                        got.size(), got[i], want[i], hint)};
  }
  if (got.size() != want.size())
    return {name, false,
            fmt::format("{} steps recorded, the schedule has {}: --total (or --steps) differs from the loop's",
                        got.size(), want.size())};
  return {name, true, fmt::format("{} steps, each within {} of the schedule", n, tol.str())};
}

namespace {

// --expect-lr: every step's lr is the schedule's (schedule_law).
void judge_schedule(Checking& c) {
  if (!c.o.expect_lr.empty()) c.add(schedule_law(c.straight(), c.o));
}

}  // namespace

extern const CheckLaw check_law_schedule{law::kSchedule, judge_schedule};

}  // namespace trainproof
