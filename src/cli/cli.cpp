// The trainproof CLI (cli.h): the subcommands (commands.h, a file each), then the one place
// where errors become exit codes (errors.h). Progress goes to stderr, results to stdout.
// Built without LibTorch (TRAINPROOF_WITH_LIBTORCH=0, the Python wheel's trainproof), it has
// the subcommands that need none: list (its catalogs), compare, check and mutate.
#include "trainproof/cli/cli.h"

#include <algorithm>
#include <cstdlib>
#include <exception>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "src/process/process.h"
#include "trainproof/core/data_dirs.h"
#include "trainproof/core/errors.h"
#include "trainproof/verdict/fingerprint.h"
#if TRAINPROOF_WITH_LIBTORCH
#include "trainproof/runner/runner.h"
#endif

namespace trainproof {

void cli::add_report_options(CLI::App* command, ReportFiles& files, ReportKind kind) {
  for (const auto& format : report_formats())
    if (std::find(format.holds.begin(), format.holds.end(), kind) != format.holds.end())
      command->add_option(format.options, files[format.name], format.help);
}

int cli_main(int argc, char** argv, const char* default_golden_dir, const std::vector<CliCommand>& extra) {
  install_crash_report();
  set_cli_executable("/proc/self/exe");  // child processes (preempt trials, ranks) run this CLI
  CLI::App app{"trainproof: proves a LibTorch training loop does what the best-practice documents say"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("trainproof ") + kTrainproofVersion);
  // A consumer's own CLI names its folder; ours uses the installed goldens when installed.
  cli::CliEnv env{default_golden_dir ? std::filesystem::path(default_golden_dir) : installed_data_dir("golden")};
  if (env.golden_dir.empty()) env.golden_dir = build_tree_dir("golden");
  if (const char* dir = std::getenv("TRAINPROOF_GOLDEN_DIR")) env.golden_dir = dir;

  // The subcommands, in --help's order; without LibTorch, only those that need none.
  std::vector<CliCommand> commands = {cli::list_command(env)};
#if TRAINPROOF_WITH_LIBTORCH
  commands.insert(commands.end(), {cli::run_command(), cli::verify_command(env), cli::regen_command(env),
                                   cli::record_command(), cli::tolerances_command(env)});
#endif
  commands.push_back(cli::compare_command());
#if TRAINPROOF_WITH_LIBTORCH
  commands.push_back(cli::ddp_worker_command());
#endif
  commands.push_back(cli::check_command());
#if TRAINPROOF_WITH_LIBTORCH
  commands.push_back(cli::ddp_check_command(env));
  commands.push_back(cli::lr_curve_command());
#endif
  commands.push_back(cli::mutate_command());
  commands.insert(commands.end(), extra.begin(), extra.end());
  std::vector<CLI::App*> apps;
  for (const auto& c : commands) apps.push_back(c.add(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message
    return kExitBadInput;
  }

  try {
#if TRAINPROOF_WITH_LIBTORCH
    apply_thread_count();  // LibTorch's threads in this process (without it, only the children have any)
#endif
    for (size_t i = 0; i < commands.size(); ++i)
      if (*apps[i]) return commands[i].run();
  } catch (const BadInput& e) {
    fmt::print(stderr, "trainproof: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "trainproof: internal error (exit {}): {}\n", static_cast<int>(kExitInternal), e.what());
    return kExitInternal;
  }
  return kExitBadInput;
}

}  // namespace trainproof
