// `ascendcl-snapshot inspect`: what an image holds, from its manifest, as
// text for people or as JSON for programs.
#ifndef ASCENDCL_SNAPSHOT_CLI_INSPECT_H_
#define ASCENDCL_SNAPSHOT_CLI_INSPECT_H_

#include <string>

#include "nlohmann/json.hpp"
#include "snapshot/cli/image_reader.h"

namespace ascend::snapshot::cli {

// Sums over every device (and the process-wide participants for the host
// bytes).
struct ImageTotals {
  uint64_t devices = 0;
  uint64_t allocations = 0;
  uint64_t allocation_bytes = 0;
  uint64_t files = 0;
  uint64_t data_bytes = 0;
  uint64_t pieces = 0;
  uint64_t host_bytes = 0;
  uint64_t disk_bytes = 0;
};
ImageTotals Totals(const Manifest& manifest);

// A readable account of the image in `directory`: when and by which process
// it was written, then per device its participants, allocations by kind and
// files, then the process-wide participants and the totals.
std::string InspectText(const std::string& directory, const Manifest& manifest);

// The manifest's members, plus "directory", "written_utc",
// "process_running" (true, false or null when unknown) and "totals".
nlohmann::json InspectJson(const std::string& directory,
                           const Manifest& manifest);

// "8388608 bytes (8.0 MiB)"; below 1 KiB only the bytes.
std::string Bytes(uint64_t bytes);

}  // namespace ascend::snapshot::cli

#endif  // ASCENDCL_SNAPSHOT_CLI_INSPECT_H_
