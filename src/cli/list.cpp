// `trainproof list [--json]`: scenarios, their golden status, the devices and execution paths;
// `list --findings [--json]`: the findings check names.
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "src/cli/commands.h"
#include "src/process/exec_paths.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/errors.h"
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

// The catalog of the findings check names (trainproof/check/findings.h): the table, or JSON.
void print_findings(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& k : finding_catalog())
      out.push_back(
          {{"id", k.id}, {"law", k.law}, {"document", k.document}, {"advice", k.advice}, {"planted_by", k.planted_by}});
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("{:<34} {:<30} {}\n", "finding", "law", "document passage; the mutations that plant it");
  for (const auto& k : finding_catalog())
    fmt::print("{:<34} {:<30} {}{}{}\n", k.id, k.law, k.document, k.advice ? " (advice)" : "",
               k.planted_by.empty() ? "" : fmt::format("; mutate: {}", fmt::join(k.planted_by, ", ")));
}

// The laws check holds a command to, and the two only findings break (trainproof/check/findings.h).
void print_laws(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& k : law_catalog()) out.push_back({{"id", k.id}, {"document", k.document}, {"judged", k.judged}});
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("{:<30} {}\n", "law", "document passage");
  for (const auto& k : law_catalog())
    fmt::print("{:<30} {}{}\n", k.id, k.document, k.judged ? "" : " (broken only by its findings)");
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

CliCommand list_command(CliEnv& env) {
  auto json = std::make_shared<bool>(false), findings = std::make_shared<bool>(false),
       laws = std::make_shared<bool>(false);
  return {[&env, json, findings, laws](CLI::App& app) {
            auto* list = app.add_subcommand("list", "Scenarios, devices available, golden status");
            list->add_option("--golden", env.golden_dir, "Folder of golden .h5 files");
            list->add_flag("--json", *json, "Scenario metadata and negative controls as JSON");
            list->add_flag("--findings", *findings, "The findings check names: id, law, document passage");
            list->add_flag("--laws", *laws, "The laws check holds a command to: id, document passage");
            return list;
          },
          [&env, json, findings, laws] {
            if (*findings)
              print_findings(*json);
            else if (*laws)
              print_laws(*json);
            else if (*json)
              print_json(env.golden_dir);
            else
              print_table(env.golden_dir);
            return static_cast<int>(kExitOk);
          }};
}

}  // namespace trainproof::cli
