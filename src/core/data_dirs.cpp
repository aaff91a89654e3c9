// See data_dirs.h.
#include "trainproof/core/data_dirs.h"

#include <system_error>

namespace trainproof {

std::filesystem::path program_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

namespace {

// The installation prefix of a program in `bin`: <prefix>/bin, or a repaired wheel's
// <prefix>/lib/pythonX.Y/{site,dist}-packages/trainproof.scripts; empty for any other folder.
std::filesystem::path install_prefix(const std::filesystem::path& bin) {
  if (bin.filename() == "bin") return bin.parent_path();
  const auto packages = bin.parent_path().filename();
  if (bin.filename() == "trainproof.scripts" && (packages == "site-packages" || packages == "dist-packages"))
    return bin.parent_path().parent_path().parent_path().parent_path();
  return {};
}

}  // namespace

std::filesystem::path installed_data_dir(std::string_view name) {
  const auto prefix = install_prefix(program_dir());
  if (prefix.empty()) return {};
  const auto dir = prefix / "share" / "trainproof" / name;
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
