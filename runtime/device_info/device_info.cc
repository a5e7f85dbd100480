// The device information and settings family (DESIGN.md §1.7, §5.12); the
// settings themselves live in device_settings.cc.
#include "runtime/device_info/device_info.h"

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"

namespace ascend::rt {

DeviceInfo::DeviceInfo(Runtime& runtime) : runtime_(runtime) {
  // Device settings go with a real close of their device (DESIGN.md §5.12).
  close_observer_ = runtime_.AddDeviceCloseObserver(
      [this](int32_t device_id) { settings_.OnDeviceClosed(device_id); });
}

DeviceInfo::~DeviceInfo() {
  runtime_.RemoveDeviceCloseObserver(close_observer_);
}

DeviceInfo* DeviceInfo::Of(const Runtime& runtime) {
  return runtime.family<DeviceInfo>();
}

FamilyRegistration DeviceInfoFamily() {
  return {"device info", &FamilyIndex<DeviceInfo>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<DeviceInfo>(runtime);
          }};
}

absl::StatusOr<uint32_t> DeviceInfo::AvailableIds(device::ResourceKind kind) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          runtime_.CurrentDevice());
  std::optional<uint32_t> free = device->FreeIdCount(kind);
  if (!free.has_value()) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "the device backend does not report free resource ids");
  }
  return *free;
}

absl::Status DeviceInfo::EnqueueStreamTask(void* stream,
                                           std::function<absl::Status()> run) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return runtime_.tasks().Submit(TaskKind::kMarker, "a device-state task",
                                 std::move(s), Task{std::move(run), nullptr});
}

absl::Status DeviceInfo::EnqueueDeviceWrite(
    void* stream, void* dst, size_t size,
    std::function<void(uint8_t* bytes, size_t size)> produce) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  const Runtime::Location where = runtime_.Locate(dst);
  if (!where.device) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the output address is not in a live device allocation");
  }
  const int32_t device_id = where.device->id();
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      dst, size, device_id, "the output address"));
  return runtime_.tasks().Submit(
      TaskKind::kCopy, "a device write task", std::move(s),
      Task{[runtime = &runtime_, dst, size, device_id,
            produce = std::move(produce)]() -> absl::Status {
             std::vector<uint8_t> bytes(size);
             produce(bytes.data(), bytes.size());
             return Memory::Of(*runtime)->WriteTaskMemory(dst, bytes, device_id,
                                                          "the output address");
           },
           nullptr},
      TaskWrites{
          {DeviceRange{device_id, reinterpret_cast<uint64_t>(dst), size}},
          false});
}

}  // namespace ascend::rt
