// `trainproof list [--json]`: scenarios, their golden status, the devices and execution paths
// (print_scenarios: list_scenarios.cpp, or list_scenarios_none.cpp without LibTorch);
// `list --findings [--json]`, `list --laws [--json]`: the catalogs, in every build.
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "src/cli/commands.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/errors.h"

namespace trainproof::cli {
namespace {

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
            else
              print_scenarios(env.golden_dir, *json);
            return static_cast<int>(kExitOk);
          }};
}

}  // namespace trainproof::cli
