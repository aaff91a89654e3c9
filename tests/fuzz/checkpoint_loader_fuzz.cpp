// libFuzzer target: arbitrary bytes as a checkpoint. Checkpoint::deserialize must either
// return entries or throw BadInput; the loaders must reject what does not fit the model.
#include <cstdint>
#include <string_view>

#include <torch/torch.h>

#include "harness/checkpoint.h"
#include "harness/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto ck = trainproof::Checkpoint::deserialize(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz-input");
    static torch::nn::Linear model(4, 2);
    trainproof::load_module(ck, "model", *model);
  } catch (const trainproof::BadInput&) {
  }
  return 0;
}
