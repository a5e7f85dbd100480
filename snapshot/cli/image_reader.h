// Reading a snapshot image on disk without the process that wrote it (the
// ascendcl-snapshot command): finding the image's directory and reading its
// manifest, image.json (snapshot/image_manifest.h), into plain structs with
// every member checked for presence and type.
//
//   absl::StatusOr<std::string> dir = ResolveImageDirectory(argument);
//   absl::StatusOr<Manifest> manifest = ReadManifest(*dir);
//
// Errors: kDataLoss when image.json is a manifest of the right format and
// version whose checksum does not match (the image is damaged); any other
// code when the input is not an image this tool reads (no such directory,
// no image.json, not JSON, another format or version, a malformed member).
#ifndef ASCENDCL_SNAPSHOT_CLI_IMAGE_READER_H_
#define ASCENDCL_SNAPSHOT_CLI_IMAGE_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace ascend::snapshot::cli {

struct ManifestParticipant {
  std::string name;
  uint64_t host_bytes = 0;
  uint64_t disk_bytes = 0;  // 0 for the process-wide participants
};

struct ManifestAllocations {
  std::string kind;  // "device", "managed", ...
  uint64_t count = 0;
  uint64_t bytes = 0;
};

struct ManifestFile {
  std::string name;  // a plain file name in the image's directory
  uint64_t backup = 0;
  uint64_t data_bytes = 0;
  uint64_t pieces = 0;
  uint64_t table_checksum = 0;
};

struct ManifestDevice {
  int32_t device = 0;
  std::vector<ManifestParticipant> participants;
  std::vector<ManifestAllocations> allocations;
  std::vector<ManifestFile> files;
};

struct Manifest {
  int version = 0;
  uint32_t pid = 0;
  uint64_t process_start = 0;  // clock ticks after boot
  std::string image_id;        // hex; empty when no file was written
  uint64_t written_unix_us = 0;
  uint64_t backup_duration_us = 0;
  std::vector<ManifestDevice> devices;
  std::vector<ManifestParticipant> process;
  uint64_t checksum = 0;
  // The whole object as read, for --json.
  nlohmann::json json;
};

// The image's directory for a command-line argument: `path` itself when it
// holds image.json, else its only image subdirectory (an image directory
// configured with ASCENDCL_SNAPSHOT_IMAGE_DIR holds one per process).
// Errors name `path` and what is wrong with it.
absl::StatusOr<std::string> ResolveImageDirectory(const std::string& path);

// Reads and checks `directory`/image.json.
absl::StatusOr<Manifest> ReadManifest(const std::string& directory);

// The same for manifest text already read; `name` labels the messages.
absl::StatusOr<Manifest> ParseManifest(const std::string& text,
                                       const std::string& name);

// Whether process `pid` that started `process_start` clock ticks after boot
// still runs on this host; nullopt when that cannot be told (no /proc).
std::optional<bool> ProcessRunning(uint32_t pid, uint64_t process_start);

// Lowercase hex of a 64-bit value, 16 digits (as the manifest writes it).
std::string Hex64(uint64_t value);

}  // namespace ascend::snapshot::cli

#endif  // ASCENDCL_SNAPSHOT_CLI_IMAGE_READER_H_
