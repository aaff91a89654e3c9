// Document: "torch.compile". LibTorch has no torch.compile; its C++ counterpart is
// AOTInductor: tools/export_compile_speed.py compiles the document's MLP ahead of time
// into a .pt2 package, and here eager LibTorch and the compiled package run the same
// weights on the same input: same result within 1e-5, and the time per call of each,
// measured by interleaved rounds after a warm-up.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include "trainproof/core/data_dirs.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/libtorch.h"
#include "trainproof/training/tensors.h"

namespace trainproof {
namespace {

constexpr int kCallsPerRound = 20, kRounds = 15;

// $TRAINPROOF_EXPORT_DIR, else the installed package's, else the build tree's.
std::filesystem::path export_dir() {
  const char* env = std::getenv("TRAINPROOF_EXPORT_DIR");
  if (env && *env) return env;
  const auto installed = installed_data_dir("export");
  return installed.empty() ? build_tree_dir("export") : installed;
}

struct Quartiles {
  double p25, median, p75;
};
Quartiles quartiles(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)]; };
  return {at(0.25), at(0.5), at(0.75)};
}

}  // namespace

TRAINPROOF_SCENARIO(compile_speed, "torch.compile (AOTInductor in C++)") {
  const auto device = ctx.device();
  const auto package = export_dir() / (ctx.is_cuda() ? "mlp_cuda.pt2" : "mlp_cpu.pt2");
  const auto weights = export_dir() / "mlp_weights.tpck";
  if (!std::filesystem::exists(package) || !std::filesystem::exists(weights))
    ctx.skip("no AOTInductor package at " + package.string() +
             " (built by tools/export_compile_speed.py, which needs Python with torch; see README)");

  auto fc1 = torch::nn::Linear(512, 1024);
  auto gelu1 = torch::nn::GELU();
  auto fc2 = torch::nn::Linear(1024, 1024);
  auto gelu2 = torch::nn::GELU();
  auto fc3 = torch::nn::Linear(1024, 10);
  torch::nn::Sequential model(fc1, gelu1, fc2, gelu2, fc3);
  const Checkpoint ck = Checkpoint::load(weights);
  if (!fault_injected("eager-weights-not-loaded"))
    load_module(ck, "model", *model);  // the exported model's own parameters
  model->to(device);
  model->eval();
  const auto x = ck.tensor("input").to(device);
  torch::NoGradGuard no_grad;

  auto sync = [&] {
    if (ctx.is_cuda()) torch::cuda::synchronize();
  };
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  load_whole_libtorch();  // the compiled model links libtorch.so
  torch::inductor::AOTIModelPackageLoader compiled(package.string());
  auto compiled_out = compiled.run({x})[0];
  sync();
  const double first_call_s = std::chrono::duration<double>(Clock::now() - t0).count();

  auto eager = [&] { return model->forward(x); };
  auto aot = [&] { return compiled.run({x})[0]; };
  auto ms_per_call = [&](auto fn) {
    sync();
    const auto start = Clock::now();
    for (int i = 0; i < kCallsPerRound; ++i) fn();
    sync();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / kCallsPerRound;
  };
  ms_per_call(eager);  // warm up both
  ms_per_call(aot);
  std::vector<double> eager_ms, compiled_ms;
  for (int r = 0; r < kRounds; ++r) {  // interleaved, alternating which goes first
    if (r % 2 == 0) {
      eager_ms.push_back(ms_per_call(eager));
      compiled_ms.push_back(ms_per_call(aot));
    } else {
      compiled_ms.push_back(ms_per_call(aot));
      eager_ms.push_back(ms_per_call(eager));
    }
  }
  const Quartiles e = quartiles(eager_ms), c = quartiles(compiled_ms);
  const auto eager_out = eager();
  const double max_diff = (eager_out - compiled.run({x})[0]).abs().max().item<double>();
  const bool same = torch::allclose(eager_out, compiled.run({x})[0], 1e-5, 1e-5);

  const double export_s = ck.real("export_seconds/" + std::string(ctx.is_cuda() ? "cuda" : "cpu"));
  ctx.print("first call (compile): {:.1f} s", export_s);
  ctx.print("eager:    {:.3f} ms", e.median);
  ctx.print("compiled: {:.3f} ms", c.median);
  ctx.print("same result: {}", same ? "True" : "False");
  ctx.print("  (compiled ahead of time by AOTInductor; loading the package and the first call here took {:.3f} s)",
            first_call_s);
  ctx.print(
      "  (medians of {} interleaved rounds of {} calls after a warm-up, {} threads; interquartile range "
      "eager {:.3f}-{:.3f} ms, compiled {:.3f}-{:.3f} ms; eager/compiled {:.2f}x)",
      kRounds, kCallsPerRound, at::get_num_threads(), e.p25, e.p75, c.p25, c.p75, e.median / c.median);

  // Negative control: one perturbed weight must break the same-result check.
  fc1->weight[0][0].add_(fault_injected("perturbation-below-tolerance") ? 1e-9 : 1e-2);
  const bool perturbed_same = torch::allclose(model->forward(x), compiled.run({x})[0], 1e-5, 1e-5);

  Trace t;
  // Rounding noise between two kernel sets, and the AOTInductor package is compiled for the
  // building machine's CPU: the law is the invariant (allclose at atol 1e-5), so across
  // machines the value itself is information.
  t.add("max_abs_diff_eager_compiled", DType::kFloat64, {max_diff}).tolerance = Tolerance::abs(1e-5);
  t.series.back().cross = Tolerance::any();
  // Timings are informational: they vary run to run and machine to machine.
  t.add("eager_ms_quartiles", DType::kFloat64, {e.p25, e.median, e.p75}, Tolerance::any(), "ms");
  t.add("compiled_ms_quartiles", DType::kFloat64, {c.p25, c.median, c.p75}, Tolerance::any(), "ms");
  t.check("same result (allclose, atol 1e-5)", same, fmt::format("max abs diff {:.3g}", max_diff));
  t.check("negative control: a perturbed weight breaks the same-result check", !perturbed_same, "");
  // "Often, but not always" faster: the speed-up is information (its spread and the thread
  // count are in the series and the printed lines), not a law.
  t.add("speedup_median_and_iqr_bounds", DType::kFloat64, {e.median / c.median, e.p25 / c.p75, e.p75 / c.p25},
        Tolerance::any(), "x");
  return t;
}

// Timings: no .prints; only "same result: True" is fixed, and it is an invariant.
TRAINPROOF_SCENARIO_INFO(compile_speed, .document = kBestPractices,
                         .controls = {{"eager-weights-not-loaded", {"same result"}},
                                      {"perturbation-below-tolerance", {"a perturbed weight breaks"}}});

}  // namespace trainproof
