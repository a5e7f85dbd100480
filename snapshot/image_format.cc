#include "snapshot/image_format.h"

#include <string>

#include "device/checksum.h"

namespace ascend::snapshot {

uint64_t ManifestChecksum(const nlohmann::json& manifest) {
  nlohmann::json body = manifest;
  if (body.is_object()) body.erase("checksum");
  const std::string text = body.dump();
  return device::Checksum(text.data(), text.size());
}

}  // namespace ascend::snapshot
