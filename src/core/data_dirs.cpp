// See data_dirs.h.
#include "trainproof/core/data_dirs.h"

#include <system_error>

namespace trainproof {

std::filesystem::path program_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

std::filesystem::path installed_data_dir(std::string_view name) {
  const auto bin = program_dir();
  if (bin.empty() || bin.filename() != "bin") return {};
  const auto dir = bin.parent_path() / "share" / "trainproof" / name;
  std::error_code ec;
  return std::filesystem::is_directory(dir, ec) ? dir : std::filesystem::path();
}

std::filesystem::path build_tree_dir(std::string_view name) {
#if defined(TRAINPROOF_BUILD_GOLDEN_DIR) && defined(TRAINPROOF_BUILD_EXPORT_DIR) && defined(TRAINPROOF_BUILD_PYTHON_DIR)
  if (name == "golden") return TRAINPROOF_BUILD_GOLDEN_DIR;
  if (name == "export") return TRAINPROOF_BUILD_EXPORT_DIR;
  if (name == "python") return TRAINPROOF_BUILD_PYTHON_DIR;
#endif
  return {};
}

}  // namespace trainproof
