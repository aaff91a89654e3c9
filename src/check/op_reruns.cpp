// The op-level reruns (op_reruns.h), run through check's Launcher.
#include "src/check/op_reruns.h"

#include <string>

#include <fmt/format.h>

namespace trainproof {

namespace {

class LaunchedOpReruns : public OpReruns {
 public:
  LaunchedOpReruns(const Launcher& launch, Progress& progress) : launch_(launch), progress_(progress) {}

  std::vector<Finding> parting_op(const RecordedTrace& a, const RecordedTrace& b) const override {
    const int64_t step = first_probe_step_difference(a, b);
    if (step <= 0) return {};  // no probe records: not a Python command, or --no-probe
    std::vector<RecordedTrace> reruns;
    for (const char* name : {"op-digests-1", "op-digests-2"}) {
      progress_.note(fmt::format("rerun up to step {} with op-level digests ({})", step, name));
      const Run r = launch_.make(name);
      if (!run(r, "start 1", std::to_string(step), 1)) return {};
      reruns.push_back(read_recorded_trace(r.trace));
    }
    return first_parting_op(reruns[0], reruns[1], step);
  }

  Finding resume_parting_op(const RecordedTrace& straight, const ResumeDeparture& d, Finding finding) const override {
    const int64_t resumed_at = d.restart.step, in_restart = d.step - resumed_at;  // steps the restart did before
    progress_.note(
        fmt::format("rerun of the restart at step {} and of step {} with op-level digests", resumed_at, d.step));
    const Run resumed = launch_.make("op-digests-resumed");
    if (!run(resumed, "start 1", fmt::format("{}:{}", resumed_at, resumed_at), 1) ||
        !run(resumed, "start 2 (restart)", fmt::format("{}:{}", in_restart, in_restart + 1), 2))
      return finding;
    const Run uninterrupted = launch_.make("op-digests-uninterrupted");
    if (!run(uninterrupted, "start 1", fmt::format("{}:{}", d.step - 1, d.step), 1)) return finding;
    const RecordedTrace a = read_recorded_trace(resumed.trace), b = read_recorded_trace(uninterrupted.trace);
    const auto again = align_restarts(straight, a);
    if (again.empty() || again.front().step != resumed_at) {
      progress_.note(fmt::format("the rerun's restart resumed at step {}, not {}; no op named",
                                 again.empty() ? 0 : again.front().step, resumed_at));
      return finding;
    }
    const auto op = parting_op_after_restart(a.ops, b.ops);
    if (!op) return finding;
    finding.where = op->op.where;
    // What was seen stays; the guess at its cause gives way to the op.
    finding.detail = fmt::format(
        "{} -> rerun with op-level digests: the first op with equal inputs and different "
        "outputs after the restart is {} at {}: {}",
        finding.detail.substr(0, finding.detail.find(" -> ")), op->op.op, op->op.where, op->meaning);
    return finding;
  }

 private:
  // One start of `r` digesting the ops `digests` names (TRAINPROOF_OP_DIGESTS); whether it worked.
  bool run(const Run& r, const std::string& what, const std::string& digests, int launch_no) const {
    const int code = launch_.finish(launch_.start(r, what, {{"TRAINPROOF_OP_DIGESTS", digests}}, launch_no), r);
    if (code != 0) progress_.note(fmt::format("the rerun ({}, {}) failed (exit {}); no op named", r.name, what, code));
    return code == 0;
  }

  const Launcher& launch_;
  Progress& progress_;
};

}  // namespace

std::unique_ptr<OpReruns> launched_op_reruns(const Launcher& launch, Progress& progress) {
  return std::make_unique<LaunchedOpReruns>(launch, progress);
}

}  // namespace trainproof
