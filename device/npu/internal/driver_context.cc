#include "device/npu/internal/driver_context.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "device/npu/internal/hal_error.h"
#include "glog/logging.h"

namespace ascend::device::npu::internal {

DeviceSlot::DeviceSlot(int32_t id, uint32_t driver_id)
    : id(id), driver_id(driver_id), ids(kResourceKinds, IdTable(kIdsPerKind)) {}

DriverContext::DriverContext(std::unique_ptr<HalLibrary> hal,
                             const std::vector<uint32_t>& driver_ids)
    : hal_(std::move(hal)) {
  slots_.reserve(driver_ids.size());
  for (size_t i = 0; i < driver_ids.size(); ++i) {
    slots_.push_back(
        std::make_unique<DeviceSlot>(static_cast<int32_t>(i), driver_ids[i]));
  }
}

absl::Status DriverContext::OpenDriverLocked(DeviceSlot& slot) {
  if (api().halDeviceOpen == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("the driver library \"", library_path(),
                     "\" lacks halDeviceOpen (the legacy per-module open is "
                     "not supported)"));
  }
  halDevOpenIn in = {};
  halDevOpenOut out = {};
  drvError_t err = api().halDeviceOpen(slot.driver_id, &in, &out);
  if (err != DRV_ERROR_NONE) {
    return DriverStatus(absl::StrCat("halDeviceOpen(", slot.driver_id, ")"),
                        err);
  }
  if (api().drvMemSmmuQuery != nullptr) {
    UINT32 ssid = 0;
    err = api().drvMemSmmuQuery(slot.driver_id, &ssid);
    if (err != DRV_ERROR_NONE) {
      if (api().halDeviceClose != nullptr) {
        halDevCloseIn close_in = {};
        close_in.close_type = DEV_CLOSE_HOST_DEVICE;
        (void)api().halDeviceClose(slot.driver_id, &close_in);
      }
      return DriverStatus(absl::StrCat("drvMemSmmuQuery(", slot.driver_id, ")"),
                          err);
    }
  }
  slot.driver_open = true;
  return absl::OkStatus();
}

absl::Status DriverContext::CloseDriverLocked(DeviceSlot& slot,
                                              uint32_t close_type) {
  if (api().halDeviceClose == nullptr) {
    return absl::UnimplementedError(absl::StrCat(
        "the driver library \"", library_path(),
        "\" lacks halDeviceClose (CANN: RT_ERROR_DRV_NOT_SUPPORT)"));
  }
  halDevCloseIn in = {};
  in.close_type = close_type;
  const drvError_t err = api().halDeviceClose(slot.driver_id, &in);
  if (err != DRV_ERROR_NONE) {
    return DriverStatus(absl::StrCat("halDeviceClose(", slot.driver_id,
                                     ", close_type ", close_type, ")"),
                        err);
  }
  slot.driver_open = false;
  slot.allocations.clear();
  MutexLock ids_lock(&slot.ids_mu);
  for (IdTable& table : slot.ids) table.Clear();
  return absl::OkStatus();
}

absl::Status DriverContext::Backup() {
  if (api().halProcessResBackup == nullptr) {
    LOG(WARNING) << "npu backend: the driver library \"" << library_path()
                 << "\" lacks halProcessResBackup; backup is not supported";
    return absl::UnimplementedError(
        absl::StrCat("the driver library \"", library_path(),
                     "\" lacks halProcessResBackup (CANN: "
                     "RT_ERROR_DRV_NOT_SUPPORT)"));
  }
  // What the driver is about to save: every live allocation of every device
  // open in the driver.
  std::map<int32_t, AllocationMap> image;
  for (const auto& slot : slots_) {
    ReaderMutexLock lock(&slot->mu);
    if (slot->driver_open) image[slot->id] = slot->allocations;
  }
  halProcResBackupInfo info = {};
  const drvError_t err = api().halProcessResBackup(&info);
  if (err != DRV_ERROR_NONE) return DriverStatus("halProcessResBackup", err);
  WriterMutexLock lock(&image_mu_);
  image_ = std::move(image);
  return absl::OkStatus();
}

absl::Status DriverContext::Restore() {
  if (api().halProcessResRestore == nullptr) {
    LOG(WARNING) << "npu backend: the driver library \"" << library_path()
                 << "\" lacks halProcessResRestore; restore is not supported";
    return absl::UnimplementedError(
        absl::StrCat("the driver library \"", library_path(),
                     "\" lacks halProcessResRestore (CANN: "
                     "RT_ERROR_DRV_NOT_SUPPORT)"));
  }
  halProcResRestoreInfo info = {};
  const drvError_t err = api().halProcessResRestore(&info);
  if (err != DRV_ERROR_NONE) return DriverStatus("halProcessResRestore", err);
  std::map<int32_t, AllocationMap> image;
  {
    WriterMutexLock lock(&image_mu_);
    image = image_;
  }
  for (const auto& [id, allocations] : image) {
    DeviceSlot& s = slot(id);
    WriterMutexLock lock(&s.mu);
    // The driver re-created them at the same addresses with their saved
    // bytes; it refuses a restore onto addresses in use, so none is live.
    s.allocations.insert(allocations.begin(), allocations.end());
  }
  return absl::OkStatus();
}

bool DriverContext::BackupHolds(int32_t id, DeviceAddr addr, uint64_t size) {
  WriterMutexLock lock(&image_mu_);
  auto device = image_.find(id);
  if (device == image_.end()) return false;
  auto it = device->second.find(addr);
  return it != device->second.end() && it->second == size;
}

}  // namespace ascend::device::npu::internal
