// The ascendcl-snapshot command: its arguments, subcommands and exit status.
//
//   int status = RunCommand(argc, argv, std::cout, std::cerr);
//
// Exit status: 0 done (the image is intact, for verify); 1 the image is
// damaged; 2 bad usage, or the directory is not an image this tool reads.
#ifndef ASCENDCL_SNAPSHOT_CLI_COMMAND_H_
#define ASCENDCL_SNAPSHOT_CLI_COMMAND_H_

#include <ostream>
#include <string>

namespace ascend::snapshot::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitDamaged = 1;
inline constexpr int kExitBadInput = 2;

// What --help prints.
std::string UsageText();

// Runs the command line `argv` (argv[0] the program), writing results to
// `out` and complaints to `err`. The flags are absl flags, process-wide:
// every call starts from their defaults.
int RunCommand(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace ascend::snapshot::cli

#endif  // ASCENDCL_SNAPSHOT_CLI_COMMAND_H_
