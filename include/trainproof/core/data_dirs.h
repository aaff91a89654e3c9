// Where a trainproof program finds its data (goldens, the compile_speed package): a build
// tree uses the folders compiled in; an installed program uses <prefix>/share/trainproof,
// beside the <prefix>/bin it runs from, so it keeps working once the build tree is gone.
#pragma once

#include <filesystem>
#include <string_view>

namespace trainproof {

// The folder of the running program (from /proc/self/exe); empty when unknown.
std::filesystem::path program_dir();

// <prefix>/share/trainproof/<name> when the program runs from <prefix>/bin and that folder
// exists; empty otherwise.
std::filesystem::path installed_data_dir(std::string_view name);

}  // namespace trainproof
