// The built-in subcommands, one file each (src/cli/<subcommand>.cpp): each declares its
// options on the app and returns what runs it. The work is a library call; the file only
// maps options to it and its report to the console and the report files. cli.cpp adds them
// in this order and turns errors into exit codes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "trainproof/check/check.h"
#include "trainproof/cli/cli.h"
#include "trainproof/report/report.h"

namespace trainproof::cli {

// What subcommands share: the golden folder (the program's default, $TRAINPROOF_GOLDEN_DIR,
// or a subcommand's --golden, which writes here).
struct CliEnv {
  std::filesystem::path golden_dir;
};

CliCommand list_command(CliEnv& env);
// The scenarios as `list` shows them (a table, or JSON): list_scenarios.cpp; without LibTorch,
// list_scenarios_none.cpp, which says it needs the LibTorch build (BadInput).
void print_scenarios(const std::filesystem::path& golden_dir, bool json);
CliCommand run_command();
CliCommand verify_command(CliEnv& env);
CliCommand regen_command(CliEnv& env);
CliCommand record_command();
CliCommand tolerances_command(CliEnv& env);
CliCommand compare_command();
CliCommand check_command();
CliCommand mutate_command();
CliCommand ddp_check_command(CliEnv& env);
CliCommand ddp_worker_command();
CliCommand lr_curve_command();

// An option per report format that holds the command's report (report_formats(): --json,
// --junit, --html, --markdown), each filling its path in `files`.
void add_report_options(CLI::App* command, ReportFiles& files, ReportKind kind);
// check's options but its report files and golden ones, shared with mutate, which checks each
// mutant with them; finish_check_options() reads what they parsed (the --expect-lr schedule,
// the --ceiling where given) and sets the progress sink.
void add_check_options(CLI::App* command, CheckOptions& o);
void finish_check_options(CheckOptions& o, const std::string& ceiling);

// `check --expect-lr SPEC`: the rates of SPEC, parsed as `trainproof lr-curve SPEC` is.
std::vector<double> expected_lr(const std::string& spec);

}  // namespace trainproof::cli
