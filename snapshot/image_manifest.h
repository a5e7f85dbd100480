// The manifest of an image on disk (DESIGN.md §4.15): image.json in the
// image's directory describes the last Backup — who wrote it and when, per
// device the participants with the host and disk bytes they hold, the
// allocations by kind, and the files with their identity — so that
// `ascendcl-snapshot inspect` and `verify` can read an image without the
// process that wrote it.
//
//   {"format": "ascendcl-snapshot-image", "version": 1,
//    "pid": 4242, "process_start": 123456, "image_id": "<32 hex>",
//    "written_unix_us": ..., "backup_duration_us": ...,
//    "devices": [{"device": 0,
//                 "participants": [{"name": "memory", "host_bytes": ...,
//                                   "disk_bytes": ...}, ...],
//                 "allocations": [{"kind": "device", "count": 8,
//                                  "bytes": 8388608}, ...],
//                 "files": [{"name": "dev0-1.img", "backup": 1,
//                            "data_bytes": ..., "pieces": ...,
//                            "table_checksum": "<16 hex>"}]}],
//    "process": [{"name": ..., "host_bytes": ...}],
//    "checksum": "<16 hex>"}
//
// "checksum" is device::Checksum of the object's compact JSON text without
// the "checksum" member (ManifestChecksum, snapshot/image_format.h, which
// also holds the format name and version).
#ifndef ASCENDCL_SNAPSHOT_IMAGE_MANIFEST_H_
#define ASCENDCL_SNAPSHOT_IMAGE_MANIFEST_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "runtime/runtime.h"
#include "snapshot/backup_image.h"
#include "snapshot/image_format.h"

namespace ascend::snapshot {

// Writes the manifest of `image` (a Backup whose memory went to disk) into
// `directory`, replacing the previous one only once it is complete and
// synced: kResourceExhausted on a write error.
absl::Status WriteImageManifest(rt::Runtime& runtime, const BackupImage& image,
                                const std::string& directory,
                                uint64_t duration_us);

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_IMAGE_MANIFEST_H_
