// SimDevice's resource ids (streams, events, notifies, ...): one allocator
// per kind, under the device's id lock.
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/sim/sim_device.h"

namespace ascend::device::sim {

absl::StatusOr<internal::IdAllocator*> SimDevice::Ids(ResourceKind kind) {
  const int index = static_cast<int>(kind);
  if (index >= 0 && index < kResourceKindCount) return ids_[index].get();
  return absl::InvalidArgumentError(
      absl::StrCat("unknown resource kind ", static_cast<int>(kind)));
}

absl::StatusOr<uint32_t> SimDevice::AllocateId(ResourceKind kind) {
  MutexLock lock(&ids_mu_);
  ASCEND_ASSIGN_OR_RETURN(internal::IdAllocator * ids, Ids(kind));
  return ids->Allocate();
}

absl::Status SimDevice::ClaimId(ResourceKind kind, uint32_t id) {
  MutexLock lock(&ids_mu_);
  ASCEND_ASSIGN_OR_RETURN(internal::IdAllocator * ids, Ids(kind));
  return ids->Claim(id);
}

std::optional<uint32_t> SimDevice::FreeIdCount(ResourceKind kind) const {
  const int index = static_cast<int>(kind);
  if (index < 0 || index >= kResourceKindCount) return std::nullopt;
  MutexLock lock(&ids_mu_);
  const internal::IdAllocator& ids = *ids_[index];
  return ids.limit() - ids.used();
}

void SimDevice::ReleaseId(ResourceKind kind, uint32_t id) {
  MutexLock lock(&ids_mu_);
  absl::StatusOr<internal::IdAllocator*> ids = Ids(kind);
  if (ids.ok()) (*ids)->Release(id);
}

}  // namespace ascend::device::sim
