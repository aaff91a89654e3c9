// Where a trainproof program finds its data (goldens, the compile_speed package, check's
// probe): a build tree uses the folders compiled in; an installed program uses
// <prefix>/share/trainproof, beside the <prefix>/bin it runs from, so it keeps working once
// the build tree is gone.
#pragma once

#include <filesystem>
#include <string_view>

namespace trainproof {

// The folder of the running program (from /proc/self/exe); empty when unknown.
std::filesystem::path program_dir();

// <prefix>/share/trainproof/<name> when the program runs from <prefix>/bin and that folder
// exists; empty otherwise. Installed from the wheel, the program runs from <prefix>/bin, or,
// once `auditwheel repair` has given it the libraries it vendors, from
// <prefix>/lib/pythonX.Y/site-packages/trainproof.scripts (pip puts the wheel's data in
// <prefix> either way).
std::filesystem::path installed_data_dir(std::string_view name);

// The build tree's folder of <name> ("golden", "export", "python"), compiled into this one
// small source alone, so that no other source's object depends on where the checkout lies
// (a fresh clone elsewhere reuses the compiler cache); empty for another name.
std::filesystem::path build_tree_dir(std::string_view name);

}  // namespace trainproof
