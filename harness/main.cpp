// The trainproof executable: the CLI over every scenario linked in.
#include "harness/cli.h"

int main(int argc, char** argv) {
  return trainproof::cli_main(argc, argv);
}
