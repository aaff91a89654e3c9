// `trainproof list` and `list --json` of the LibTorch build: the scenarios, their golden status,
// the devices and execution paths (list.cpp registers the command; list_scenarios_none.cpp is the
// build without LibTorch's).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/cli/commands.h"
#include "src/process/exec_paths.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {
namespace {

// What tests and CI filters are derived from: each scenario's metadata and its negative
// controls (scenario.h), as JSON on stdout.
void print_json(const std::filesystem::path& golden_dir) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : Registry::instance().all()) {
    nlohmann::json controls = nlohmann::json::array();
    for (const auto& c : d.info.controls)
      controls.push_back({{"fault", c.fault}, {"breaks", c.breaks}, {"device", c.device}});
    out.push_back({{"name", d.name},
                   {"section", d.section},
                   {"document", d.info.document},
                   {"multi_process", d.info.multi_process},
                   {"document_lines", d.info.prints.size()},
                   {"controls", controls},
                   {"golden", golden_status(golden_dir, d.name)}});
  }
  fmt::print("{}\n", out.dump(2));
}

void print_table(const std::filesystem::path& golden_dir) {
  fmt::print("devices available: {}\n", fmt::join(available_devices(), ", "));
  std::vector<std::string> paths;
  for (const auto& p : cpu_paths(cpu_flags())) paths.push_back(p.name);
  fmt::print("CPU execution paths (verify --paths, regen): {}\n", fmt::join(paths, ", "));
  fmt::print("golden folder: {}\n\n", golden_dir.string());
  fmt::print("{:<22} {:<28} {}\n", "scenario", "golden", "document section");
  for (const auto& d : Registry::instance().all())
    fmt::print("{:<22} {:<28} {}\n", d.name, golden_status(golden_dir, d.name), d.section);
}

}  // namespace

void print_scenarios(const std::filesystem::path& golden_dir, bool json) {
  if (json)
    print_json(golden_dir);
  else
    print_table(golden_dir);
}

}  // namespace trainproof::cli
