// AdamW as PyTorch's Python implementation computes it on CPU (the single-tensor path of
// torch/optim/adam.py): LibTorch's C++ AdamW updates the first moment with mul_+add_
// where Python uses lerp_, and takes sqrt where Python takes **0.5, so the two drift
// apart in the last bits after a few steps. This subclass keeps LibTorch's options and
// state types (checkpoints and schedulers see a torch::optim::AdamW) with Python's arithmetic.
#pragma once

#include <torch/torch.h>

namespace trainproof {

class AdamW : public torch::optim::AdamW {
 public:
  using torch::optim::AdamW::AdamW;
  torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace trainproof
