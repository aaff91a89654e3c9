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

}  // namespace trainproof
