// `ascendcl-snapshot verify`: checks every file an image's manifest lists
// against the manifest and against itself, reading each file once.
//
//   VerifyResult result = VerifyImage(directory, manifest);
//   if (!result.damage.empty()) ...  // one entry per damaged file
//
// A file is damaged when it is missing, does not parse (ParseImageFile:
// magic, version, header checksum, size, piece table checksum), its header
// names another process, image, device, Backup, size or piece count than the
// manifest, its piece table is not the one the manifest names, or a piece's
// bytes do not give the checksum the table holds for them. Files the
// manifest does not list are not looked at.
#ifndef ASCENDCL_SNAPSHOT_CLI_VERIFY_H_
#define ASCENDCL_SNAPSHOT_CLI_VERIFY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/cli/image_reader.h"

namespace ascend::snapshot::cli {

struct Damage {
  std::string file;  // the name the manifest lists
  std::string what;  // how it is damaged, a sentence naming the file
};

struct VerifyResult {
  std::vector<Damage> damage;
  // What was found intact.
  uint64_t files = 0;
  uint64_t pieces = 0;
  uint64_t data_bytes = 0;
};

VerifyResult VerifyImage(const std::string& directory,
                         const Manifest& manifest);

}  // namespace ascend::snapshot::cli

#endif  // ASCENDCL_SNAPSHOT_CLI_VERIFY_H_
