// See probe_findings.h: where two runs part, down to the first op with equal inputs and
// different outputs.
#include "src/check/probe_findings.h"
#include "trainproof/check/findings.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/probe_records.h"

namespace trainproof {

using namespace probe_records;

int64_t first_probe_step_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const size_t n = std::min(a.probe.size(), b.probe.size());
  const std::set<std::string> rngs = used_rngs(a);
  for (size_t i = 0; i < n; ++i)
    if (a.probe[i].values != b.probe[i].values || !differing_state(a.probe[i], b.probe[i], rngs).empty())
      return static_cast<int64_t>(i) + 1;
  return a.probe.size() != b.probe.size() ? static_cast<int64_t>(n) + 1 : 0;
}

namespace {
bool name_has(const std::string& op, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return op.find(w) != std::string::npos; });
}
// Ops on uninitialized memory: their bytes differ every run, and mean nothing.
bool uninitialized(const ProbeOp& x) {
  return name_has(x.op, {"aten::empty", "aten::new_empty", "aten::resize_"});
}
bool random_op(const std::string& op) {
  return name_has(
      op, {"rand", "normal", "bernoulli", "dropout", "uniform", "multinomial", "exponential", "cauchy", "geometric"});
}
bool parts(const ProbeOp& x, const ProbeOp& y) {
  return x.op == y.op && !uninitialized(x) && x.in == y.in && x.out != y.out;
}
}  // namespace

std::vector<Finding> first_parting_op(const RecordedTrace& a, const RecordedTrace& b, int64_t step) {
  const size_t n = std::min(a.ops.size(), b.ops.size());
  for (size_t i = 0; i < n; ++i) {
    const ProbeOp &x = a.ops[i], &y = b.ops[i];
    std::string detail;
    if (x.op == y.op && uninitialized(x)) continue;
    if (x.op != y.op) {
      detail = fmt::format("the two runs took different ops at op {}: {} ({}) and {} ({})", x.index, x.op, x.where,
                           y.op, y.where);
    } else if (parts(x, y)) {
      const bool atomics = name_has(x.op, {"index_add", "scatter_add", "scatter_reduce", "index_put", "put_",
                                           "embedding_dense_backward", "embedding_bag"});
      detail = fmt::format(
          "first op with equal inputs and different outputs: {} at {} (op {} of the rerun){}", x.op, x.where, x.index,
          random_op(x.op) ? ": a random op drawing from a generator that is not seeded (or seeded from the OS); seed it"
          : atomics       ? ": a kernel known to be nondeterministic on CUDA (atomic adds); "
                            "torch.use_deterministic_algorithms(True) picks a deterministic one or raises"
                          : ": a kernel that is not deterministic here; torch.use_deterministic_algorithms(True) names "
                            "or replaces it");
    } else {
      continue;
    }
    return {make_finding(finding_id::kNondeterministicOp, step, x.where, detail)};
  }
  return {};
}

std::optional<PartingOp> parting_op_after_restart(const std::vector<ProbeOp>& restart,
                                                  const std::vector<ProbeOp>& straight) {
  size_t n = 0;  // the length of the common tail of op names
  while (n < restart.size() && n < straight.size() &&
         restart[restart.size() - 1 - n].op == straight[straight.size() - 1 - n].op)
    ++n;
  for (size_t k = n; k > 0; --k) {
    const ProbeOp& x = restart[restart.size() - k];
    if (!parts(x, straight[straight.size() - k])) continue;
    return PartingOp{x, random_op(x.op) ? "a random op drawing from a generator whose state the checkpoint does not "
                                          "hold (a torch.Generator of the script's or a module's own): save its "
                                          "get_state() in the checkpoint and set_state() it on resume"
                                        : "an op whose result depends on state the checkpoint does not hold, or a "
                                          "kernel that is not deterministic"};
  }
  return std::nullopt;
}

std::string first_probe_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const size_t n = std::min(a.probe.size(), b.probe.size());
  const std::set<std::string> rngs = used_rngs(a);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<std::string> diff = differing_state(a.probe[i], b.probe[i], rngs);
    if (!diff.empty())
      return fmt::format("first at step {} ({}): {} differ", i + 1, a.probe[i].where, fmt::join(diff, ", "));
  }
  if (a.probe.size() != b.probe.size())
    return fmt::format("{} optimizer steps in one run, {} in the other", a.probe.size(), b.probe.size());
  if (const std::string k = differing_final_digest(a, b); !k.empty()) return fmt::format("the final {} differ", k);
  return "";
}

std::string differing_final_digest(const RecordedTrace& a, const RecordedTrace& b) {
  for (const auto& [k, v] : a.final_digests)
    if (b.final_digests.count(k) && b.final_digests.at(k) != v) return k;
  return "";
}

}  // namespace trainproof
