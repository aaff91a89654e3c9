// Activation checkpointing for LibTorch, which has no torch.utils.checkpoint: a segment of
// the model runs without keeping its activations and runs again during backward, trading
// compute for memory (the training-loop document: "Activation checkpointing trades compute
// for memory in deep models"). As PyTorch's reentrant checkpoint with
// preserve_rng_state=True, the random state at the forward pass is restored for the
// recompute, so dropout draws the same masks and the gradients are bitwise those of the
// plain run.
#pragma once

#include <cstdint>
#include <functional>

#include <torch/torch.h>

namespace trainproof {

using Segment = std::function<torch::Tensor(const torch::Tensor&)>;

// Runs `segment` on `input` and returns its output; the backward pass recomputes it.
torch::Tensor checkpoint(const Segment& segment, const torch::Tensor& input, bool preserve_rng_state = true);

// The bytes a checkpoint keeps on `device` of the random state it replays for a segment
// whose input is there: the CPU generator's state lives on the CPU; a CUDA generator's state
// is a CPU tensor too, so on CUDA none.
int64_t replay_state_bytes(c10::Device device);

// Bytes of tensor storage alive on a device. On the CPU a wrapper around LibTorch's CPU
// allocator counts them (installed on first use; it forwards every allocation); on CUDA the
// caching allocator's own statistics do (torch.cuda.memory_allocated / max_memory_allocated).
// Tensors saved for backward are what stays alive between the forward and the backward
// pass, so the difference in live bytes across a forward pass measures them, the same on
// every CPU. The CPU counter is installed only while a meter lives.
class MemoryMeter {
 public:
  explicit MemoryMeter(c10::Device device);  // peak() starts at live(); one CPU meter at a time
  ~MemoryMeter();
  MemoryMeter(const MemoryMeter&) = delete;
  MemoryMeter& operator=(const MemoryMeter&) = delete;
  int64_t live() const;
  int64_t peak() const;  // the most alive since construction

 private:
  c10::Device device_;
};

}  // namespace trainproof
