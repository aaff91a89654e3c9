// `check --expect-lr` in a trainproof built without LibTorch (TRAINPROOF_WITH_LIBTORCH=OFF, the
// Python wheel's): the expected rates come from trainproof's schedulers (training/lr_curve.h),
// which run on LibTorch, so this build says so instead (lr_curve.cpp is the LibTorch build's).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "src/cli/commands.h"
#include "trainproof/core/errors.h"

namespace trainproof::cli {

std::vector<double> expected_lr(const std::string& spec) {
  throw BadInput(
      fmt::format("--expect-lr '{}': this trainproof is built without LibTorch, whose schedulers give the "
                  "expected rates; use a trainproof built with LibTorch (tools/bootstrap.sh), or leave "
                  "--expect-lr out",
                  spec));
}

}  // namespace trainproof::cli
