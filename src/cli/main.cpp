// The trainproof executable: the CLI over every scenario linked in.
#include "trainproof/cli/cli.h"

int main(int argc, char** argv) {
  return trainproof::cli_main(argc, argv);
}
