// What the writer of an image's manifest (image_manifest.cc, inside the
// runtime) and its readers (the ascendcl-snapshot command) must agree on,
// kept in a library small enough for a reader to link without the runtime:
// the manifest's format name, its version, and how its checksum is made.
// The manifest itself is described in snapshot/image_manifest.h.
//
//   nlohmann::json manifest = ...;  // every member but "checksum"
//   manifest["checksum"] = absl::StrFormat("%016x",
//   ManifestChecksum(manifest));
#ifndef ASCENDCL_SNAPSHOT_IMAGE_FORMAT_H_
#define ASCENDCL_SNAPSHOT_IMAGE_FORMAT_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace ascend::snapshot {

// The manifest's "format" member.
inline constexpr absl::string_view kManifestFormat = "ascendcl-snapshot-image";
// The manifest's "version" member; readers refuse any other.
inline constexpr int kManifestVersion = 1;

// The checksum a manifest carries: device::Checksum of the compact JSON text
// of `manifest` with its "checksum" member left out.
uint64_t ManifestChecksum(const nlohmann::json& manifest);

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_IMAGE_FORMAT_H_
