// Replaces a file so that readers see the old contents or the new, never a half-written
// file: write a temp file beside it, fsync, rename over the target, fsync the directory.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>

namespace trainproof {

// Calls `write(tmp)` to produce the new contents at a temporary path in the target's
// directory, then makes them durable and renames them over `target`. If `write` throws,
// the temporary file is removed and `target` is untouched.
void atomic_replace(const std::filesystem::path& target,
                    const std::function<void(const std::filesystem::path& tmp)>& write);

void atomic_write_bytes(const std::filesystem::path& target, std::string_view bytes);

// Test hook: when set, called after the temp file is complete and before the rename.
// A test throws from it to simulate a crash between the two.
extern std::function<void(const std::filesystem::path& tmp)> g_before_rename_hook;

}  // namespace trainproof
