// The trainproof executable: the installed CLI over every scenario linked in, plus what only
// this repository's binary carries (the demo workload and the bench; neither is installed).
#include "bench/bench_cli.h"
#include "trainproof/cli/cli.h"
#include "workloads/textclf/textclf_cli.h"

int main(int argc, char** argv) {
  std::vector<trainproof::CliCommand> extra = trainproof::textclf_commands();
  extra.push_back(trainproof::bench_command());
  return trainproof::cli_main(argc, argv, nullptr, extra);
}
