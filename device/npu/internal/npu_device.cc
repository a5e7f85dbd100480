// NpuDevice's lifecycle: taking over an opened slot, closing, and Reopen
// for a snapshot restore. Its concerns live beside it: npu_device_memory.cc
// (memory and copies), npu_device_ids.cc (resource ids).
#include "device/npu/internal/npu_device.h"

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/base/status_macros.h"
#include "device/npu/internal/hal_error.h"
#include "glog/logging.h"

namespace ascend::device::npu::internal {

absl::Status CheckOpen(const DeviceSlot& slot) {
  if (slot.driver_open) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("npu device ", slot.id, " is not open in the driver"));
}

NpuDevice::NpuDevice(std::shared_ptr<DriverContext> context, DeviceSlot& slot)
    : context_(std::move(context)), slot_(slot) {}

NpuDevice::~NpuDevice() {
  WriterMutexLock lock(&slot_.mu);
  slot_.has_handle = false;
  slot_.dropped.clear();
  if (!slot_.driver_open) return;
  if (api().halDeviceClose != nullptr) {
    absl::Status status =
        context_->CloseDriverLocked(slot_, DEV_CLOSE_HOST_DEVICE);
    LOG_IF(WARNING, !status.ok())
        << "npu device " << slot_.id << ": " << status;
    return;
  }
  // No halDeviceClose: the device stays open in the driver; release what the
  // handle owned so the next Open starts empty.
  LOG(WARNING) << "npu device " << slot_.id << ": the driver library \""
               << context_->library_path()
               << "\" lacks halDeviceClose; the device stays open in the "
                  "driver and its allocations are freed one by one";
  for (const auto& [addr, size] : slot_.allocations) {
    const drvError_t err = api().halMemFree(reinterpret_cast<void*>(addr));
    LOG_IF(WARNING, err != DRV_ERROR_NONE)
        << "npu device " << slot_.id << ": " << DriverStatus("halMemFree", err);
  }
  slot_.allocations.clear();
  MutexLock ids_lock(&slot_.ids_mu);
  for (IdTable& table : slot_.ids) table.Clear();
}

absl::Status NpuDevice::Reopen() {
  // As CANN's restore path: without halDeviceClose nothing is touched.
  if (api().halDeviceClose == nullptr || api().halDeviceOpen == nullptr) {
    return absl::UnimplementedError(absl::StrCat(
        "the driver library \"", context_->library_path(), "\" lacks ",
        api().halDeviceClose == nullptr ? "halDeviceClose" : "halDeviceOpen",
        " (CANN: RT_ERROR_DRV_NOT_SUPPORT)"));
  }
  WriterMutexLock lock(&slot_.mu);
  if (slot_.driver_open) {
    AllocationMap live = slot_.allocations;
    ASCEND_RETURN_IF_ERROR(
        context_->CloseDriverLocked(slot_, DEV_CLOSE_HOST_USER));
    slot_.dropped.insert(live.begin(), live.end());
  }
  // A failed open leaves the device closed; Reopen may be retried.
  return context_->OpenDriverLocked(slot_);
}

}  // namespace ascend::device::npu::internal
