// NpuDevice's resource ids (device_ids.h): one table per kind (id_table.h),
// under the slot's id lock.
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/base/status_macros.h"
#include "device/npu/internal/npu_device.h"

namespace ascend::device::npu::internal {
namespace {

absl::StatusOr<size_t> KindIndex(ResourceKind kind) {
  const int index = static_cast<int>(kind);
  if (index < 0 || index >= kResourceKinds) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown resource kind ", index));
  }
  return static_cast<size_t>(index);
}

}  // namespace

absl::StatusOr<uint32_t> NpuDevice::AllocateId(ResourceKind kind) {
  ASCEND_ASSIGN_OR_RETURN(const size_t index, KindIndex(kind));
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_RETURN_IF_ERROR(CheckOpen(slot_));
  MutexLock ids_lock(&slot_.ids_mu);
  return slot_.ids[index].Allocate();
}

absl::Status NpuDevice::ClaimId(ResourceKind kind, uint32_t id) {
  ASCEND_ASSIGN_OR_RETURN(const size_t index, KindIndex(kind));
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_RETURN_IF_ERROR(CheckOpen(slot_));
  MutexLock ids_lock(&slot_.ids_mu);
  return slot_.ids[index].Claim(id);
}

void NpuDevice::ReleaseId(ResourceKind kind, uint32_t id) {
  absl::StatusOr<size_t> index = KindIndex(kind);
  if (!index.ok()) return;
  MutexLock ids_lock(&slot_.ids_mu);
  slot_.ids[*index].Release(id);
}

}  // namespace ascend::device::npu::internal
