// The device interface, resource ids (see device.h for the whole
// interface): the numeric ids of streams, events and notifies a device hands
// out, one id space per kind.
#ifndef ASCENDCL_DEVICE_DEVICE_IDS_H_
#define ASCENDCL_DEVICE_DEVICE_IDS_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device {

// Kinds of numeric resource ids a device hands out: one id space each. A new
// kind goes before kCount; every table sized by kinds uses kResourceKindCount
// (and static_asserts it where the size is written out).
enum class ResourceKind : int {
  kStream = 0,
  kEvent = 1,
  kNotify = 2,
  kCntNotify = 3,
  kCount
};
inline constexpr int kResourceKindCount =
    static_cast<int>(ResourceKind::kCount);

// Resource ids (Device).
class IdOps {
 public:
  virtual ~IdOps() = default;

  virtual absl::StatusOr<uint32_t> AllocateId(ResourceKind kind) = 0;
  // Claims exactly `id` (after a re-open): kAlreadyExists when taken.
  virtual absl::Status ClaimId(ResourceKind kind, uint32_t id) = 0;
  virtual void ReleaseId(ResourceKind kind, uint32_t id) = 0;
  // How many ids of `kind` AllocateId can still hand out; nullopt when the
  // backend cannot tell.
  virtual std::optional<uint32_t> FreeIdCount(ResourceKind kind) const {
    return std::nullopt;
  }
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_IDS_H_
