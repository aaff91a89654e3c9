// Document: the training loop, "Stability and Scale Techniques": "Activation checkpointing
// trades compute for memory in deep models." Eight Linear-ReLU-Dropout blocks run plainly
// and under checkpoint(): the gradients are bitwise equal, dropout included, because the
// recompute restores the random state (PyTorch's preserve_rng_state), and a checkpointed
// block keeps none of its activations for backward: only its output, and the random state
// it replays (counted on the device's allocator, after a warm-up pass, so a library's
// first-use workspace never lands in the count).
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/activation_checkpoint.h"
#include "trainproof/training/tensors.h"

namespace trainproof {
namespace {

constexpr int64_t kBlocks = 8, kWidth = 256;

struct NetImpl : torch::nn::Module {
  NetImpl() {
    for (int64_t i = 0; i < kBlocks; ++i) {
      auto fc = torch::nn::Linear(kWidth, kWidth);
      auto relu = torch::nn::ReLU();
      auto dropout = torch::nn::Dropout(0.1);
      blocks.push_back(register_module("block" + std::to_string(i), torch::nn::Sequential(fc, relu, dropout)));
    }
    head = register_module("head", torch::nn::Linear(kWidth, 10));
  }
  torch::Tensor block(size_t i, const torch::Tensor& x, bool checkpointed) {
    if (!checkpointed || fault_injected("checkpoint-does-nothing")) return blocks[i]->forward(x);
    return checkpoint([impl = blocks[i].ptr()](const torch::Tensor& in) { return impl->forward(in); }, x);
  }
  // The first block runs plainly: a (reentrant) checkpoint needs an input that requires
  // grad, or the segment's parameters get no gradient, in PyTorch as here.
  torch::Tensor forward(torch::Tensor x, bool checkpointed) {
    for (size_t i = 0; i < blocks.size(); ++i) x = block(i, x, checkpointed && i > 0);
    return head(x);
  }
  std::vector<torch::nn::Sequential> blocks;
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Net);

// The bytes one block keeps alive for backward beyond its input (which the block before it
// holds), as inside the net: and its output's bytes.
std::pair<int64_t, int64_t> block_keeps(Net& net, const torch::Tensor& input, bool checkpointed) {
  const auto in = input.detach().requires_grad_();
  const MemoryMeter meter(in.device());
  const int64_t before = meter.live();
  const auto out = net->block(1, in, checkpointed);
  return {meter.live() - before, static_cast<int64_t>(out.nbytes())};
}

}  // namespace

TRAINPROOF_SCENARIO(activation_checkpointing, "Stability and Scale Techniques: activation checkpointing") {
  const auto device = ctx.device();
  torch::manual_seed(0);
  const auto X = torch::randn({64, kWidth}).to(device), y = torch::randint(0, 10, {64}).to(device);
  {  // the warm-up: a library's first-use workspace (cuBLAS's) is allocated outside the counts
    Net warm;
    warm->to(device);
    torch::nn::functional::cross_entropy(warm->forward(X, true), y).backward();
  }

  Trace t;
  std::vector<torch::Tensor> grads;
  std::vector<int64_t> held, peak;
  for (const bool checkpointed : {false, true}) {
    torch::manual_seed(1);
    Net net;
    net->to(device);
    net->train();
    const MemoryMeter meter(device);
    const int64_t before = meter.live();
    const auto loss = torch::nn::functional::cross_entropy(net->forward(X, checkpointed), y);
    held.push_back(meter.live() - before);  // what the graph keeps for backward (and the loss)
    loss.backward();
    peak.push_back(meter.peak() - before);  // the recompute runs inside backward
    std::vector<torch::Tensor> g, norms;
    for (const auto& p : net->parameters()) {
      g.push_back(p.grad().reshape(-1));
      norms.push_back(p.grad().norm());
    }
    grads.push_back(torch::cat(g).cpu());
    // The golden keeps each parameter's gradient norm (the full gradients are half a million
    // values); the law compares every gradient bitwise in this process.
    record(t, checkpointed ? "grad_norms_checkpointed" : "grad_norms_plain", torch::stack(norms)).across_devices =
        kDeviceDropout;
  }
  const bool equal = bitwise_equal(grads[0], grads[1]);
  ctx.print("gradients with checkpoint() bitwise equal to the plain run's (dropout 0.1): {}", equal ? "True" : "False");
  ctx.print("bytes alive for backward: plain {}, checkpointed {} ({:.1f}x less)", held[0], held[1],
            static_cast<double>(held[0]) / static_cast<double>(std::max<int64_t>(held[1], 1)));
  t.add_ints("bytes_held_for_backward_plain_checkpointed", DType::kInt64, held).across_devices =
      "dropout's mask for backward is the device's own: a float per value on the CPU, a byte on CUDA (fused dropout)";
  if (device.is_cuda()) {
    // Peak allocated memory depends on the caching allocator's rounding: informational.
    ctx.print("peak bytes allocated over forward and backward: plain {}, checkpointed {}", peak[0], peak[1]);
    t.add_ints("cuda_peak_bytes_plain_checkpointed", DType::kInt64, peak).cross = Tolerance::any();
  }

  // The document's trade, block by block: a plain block keeps its activations (ReLU's output,
  // dropout's mask and output); a checkpointed one keeps its output and the random state its
  // recompute replays, nothing of its inside, on any device.
  torch::manual_seed(1);
  Net net;
  net->to(device);
  const auto [plain, output] = block_keeps(net, X, false);
  const int64_t kept = block_keeps(net, X, true).first, boundary = output + replay_state_bytes(device);
  ctx.print("bytes one block keeps for backward: plain {}, checkpointed {} (its output {}, the random state {})", plain,
            kept, output, boundary - output);
  t.check("checkpointed gradients are bitwise the plain run's, dropout included", equal, "");
  t.check("a checkpointed block keeps only its output and the random state it replays; a plain one its activations",
          kept <= boundary && plain > boundary,
          fmt::format("one block: checkpointed {} bytes (bound {}), plain {}", kept, boundary, plain));
  return t;
}

TRAINPROOF_SCENARIO_INFO(activation_checkpointing, .document = kTrainingLoop,
                         .controls = {{"checkpoint-forgets-rng-state", {"checkpointed gradients"}},
                                      {"checkpoint-does-nothing", {"a checkpointed block keeps only"}}});

}  // namespace trainproof
