// ascendcl-snapshot: inspects and verifies snapshot images on disk; see
// UsageText in command.cc, or run it with --help.
#include <iostream>

#include "snapshot/cli/command.h"

int main(int argc, char** argv) {
  return ascend::snapshot::cli::RunCommand(argc, argv, std::cout, std::cerr);
}
