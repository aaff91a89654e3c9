// Durable, atomic file replacement (POSIX).
#include "trainproof/core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "trainproof/core/errors.h"

namespace trainproof {

std::function<void(const std::filesystem::path&)> g_before_rename_hook;

namespace {

void fsync_path(const std::filesystem::path& p, bool directory) {
  const int fd = ::open(p.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), fmt::format("open {} for fsync", p.string()));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw std::system_error(err, std::generic_category(), fmt::format("fsync {}", p.string()));
}

std::filesystem::path temp_beside(const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  return target.parent_path() / fmt::format(".{}.tmp-{}-{}", target.filename().string(), ::getpid(), counter++);
}

}  // namespace

void atomic_replace(const std::filesystem::path& target,
                    const std::function<void(const std::filesystem::path& tmp)>& write) {
  const std::filesystem::path dir = target.parent_path().empty() ? "." : target.parent_path();
  const std::filesystem::path tmp = temp_beside(target.parent_path().empty() ? "./" / target : target);
  try {
    write(tmp);
    fsync_path(tmp, false);
    if (g_before_rename_hook) g_before_rename_hook(tmp);
    std::filesystem::rename(tmp, target);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  fsync_path(dir, true);
}

void atomic_write_bytes(const std::filesystem::path& target, std::string_view bytes) {
  atomic_replace(target, [&](const std::filesystem::path& tmp) {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    // A folder that is not there or not writable: the caller's path is the bad input.
    if (!f) throw BadInput(fmt::format("{}: cannot create: {}", target.string(), std::strerror(errno)));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.flush();
    if (!f) throw std::runtime_error(fmt::format("{}: write failed: {}", tmp.string(), std::strerror(errno)));
  });
}

}  // namespace trainproof
