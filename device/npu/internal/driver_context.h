// What the npu backend and its device handles share: the loaded driver, one
// slot per visible device (its open state, allocation table and id tables),
// and the host-side record of the last driver backup.
//
// Locking: each slot has its own mutex; when two slots are held (peer copies)
// they are taken in ascending id order. DriverContext::image_mu_ is never held
// together with a slot's mutex.
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_DRIVER_CONTEXT_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_DRIVER_CONTEXT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/device.h"
#include "device/npu/internal/hal_abi.h"
#include "device/npu/internal/hal_library.h"
#include "device/npu/internal/id_table.h"

namespace ascend::device::npu::internal {

// Host-side id limit per kind (the driver's id calls are outside the subset).
inline constexpr uint32_t kIdsPerKind = 65536;
inline constexpr int kResourceKinds = kResourceKindCount;
static_assert(kResourceKinds == static_cast<int>(ResourceKind::kCount),
              "one id table per ResourceKind");

// base address -> size
using AllocationMap = std::map<DeviceAddr, uint64_t>;

struct DeviceSlot {
  DeviceSlot(int32_t id, uint32_t driver_id);

  const int32_t id;          // the backend's device id
  const uint32_t driver_id;  // the driver's logical id (drvGetDevIDs)

  mutable SharedMutex mu;
  // A Device handle for this slot exists.
  bool has_handle ABSL_GUARDED_BY(mu) = false;
  // halDeviceOpen succeeded and no halDeviceClose since.
  bool driver_open ABSL_GUARDED_BY(mu) = false;
  // Live allocations of the device (made by Allocate, or re-created by
  // halProcessResRestore).
  AllocationMap allocations ABSL_GUARDED_BY(mu);
  // Allocations dropped by Reopen that AllocateAt has not taken back yet.
  AllocationMap dropped ABSL_GUARDED_BY(mu);
  // Resource ids have their own lock, taken after `mu` (held shared to see
  // the device open): id traffic never waits behind a long copy, which holds
  // `mu` shared, through a waiting writer.
  mutable Mutex ids_mu ABSL_ACQUIRED_AFTER(mu);
  std::vector<IdTable> ids ABSL_GUARDED_BY(ids_mu);
};

class DriverContext {
 public:
  // `driver_ids[i]` is the driver's logical id of backend device i.
  DriverContext(std::unique_ptr<HalLibrary> hal,
                const std::vector<uint32_t>& driver_ids);

  const HalApi& api() const { return hal_->api(); }
  const std::string& library_path() const { return hal_->path(); }
  int32_t device_count() const { return static_cast<int32_t>(slots_.size()); }
  DeviceSlot& slot(int32_t id) const { return *slots_[id]; }

  // halDeviceOpen (zero-filled in/out, as CANN passes) then, when the driver
  // has it, drvMemSmmuQuery as CANN does after every open (a failure closes
  // the device again). kUnimplemented without halDeviceOpen.
  absl::Status OpenDriverLocked(DeviceSlot& slot)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // halDeviceClose with `close_type`, other fields zero; on success the
  // slot's allocations and ids are dropped (the caller decides about
  // `dropped`). kUnimplemented without halDeviceClose.
  absl::Status CloseDriverLocked(DeviceSlot& slot, uint32_t close_type)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);

  // halProcessResBackup / halProcessResRestore (zero-filled info). Backup
  // records, per open device, the allocations the driver saves; a successful
  // restore makes them live again in their slots. kUnimplemented when the
  // driver lacks the call. Take no slot lock.
  absl::Status Backup();
  absl::Status Restore();

  // Whether the last successful Backup saved exactly [addr, addr + size) of
  // device `id`.
  bool BackupHolds(int32_t id, DeviceAddr addr, uint64_t size);

 private:
  std::unique_ptr<HalLibrary> hal_;
  std::vector<std::unique_ptr<DeviceSlot>> slots_;

  SharedMutex image_mu_;
  // device id -> allocations saved by the last successful backup.
  std::map<int32_t, AllocationMap> image_ ABSL_GUARDED_BY(image_mu_);
};

}  // namespace ascend::device::npu::internal

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_DRIVER_CONTEXT_H_
