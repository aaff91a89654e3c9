// `trainproof list` (the scenarios) in a trainproof built without LibTorch (TRAINPROOF_WITH_LIBTORCH=OFF,
// the Python wheel's): the scenarios run on LibTorch, so this build says so; its `list --findings`
// and `list --laws` are the LibTorch build's own (list.cpp).
#include <filesystem>

#include "src/cli/commands.h"
#include "trainproof/core/errors.h"

namespace trainproof::cli {

void print_scenarios(const std::filesystem::path&, bool) {
  throw BadInput(
      "list: this trainproof is built without LibTorch, and the scenarios and their goldens run on it; "
      "`list --findings` and `list --laws` work here, the scenarios need a trainproof built with LibTorch "
      "(tools/bootstrap.sh)");
}

}  // namespace trainproof::cli
