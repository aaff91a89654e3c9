// The demo workload's subcommands, which only the trainproof executable carries:
//   train textclf   train the text classifier with the documents' loop, resuming from checkpoints
//   preempt         kill and resume it for real; compare bitwise with an uninterrupted run
#pragma once

#include <vector>

#include "trainproof/cli/cli.h"

namespace trainproof {

std::vector<CliCommand> textclf_commands();

}  // namespace trainproof
