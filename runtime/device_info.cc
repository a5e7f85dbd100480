// Runtime operations behind the device information and settings calls
// (DESIGN.md §5.12); the settings themselves live in device_settings.cc.
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"

namespace ascend::rt {

absl::StatusOr<bool> Runtime::PeerAccessStatus(int32_t device_id,
                                               int32_t peer) const {
  if (device_id < 0 || device_id >= device_count_ || peer < 0 ||
      peer >= device_count_) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("device ids ", device_id, " and ", peer,
                              " must lie in [0, ", device_count_, ")"));
  }
  if (device_id == peer) return false;
  // One-directional (04 device management, aclrtDeviceEnablePeerAccess):
  // device_id enabled access to peer; peer enabling device_id is the other
  // direction.
  ascend::MutexLock lock(&mu_);
  return devices_[device_id].peers.contains(peer);
}

absl::StatusOr<uint32_t> Runtime::AvailableIds(device::ResourceKind kind) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          CurrentDevice());
  std::optional<uint32_t> free = device->FreeIdCount(kind);
  if (!free.has_value()) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "the device backend does not report free resource ids");
  }
  return *free;
}

absl::Status Runtime::EnqueueStreamTask(void* stream,
                                        std::function<absl::Status()> run) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  return tasks_.Submit(TaskKind::kMarker, "a device-state task", std::move(s),
                       Task{std::move(run), nullptr});
}

absl::Status Runtime::EnqueueDeviceWrite(
    void* stream, void* dst, size_t size,
    std::function<void(uint8_t* bytes, size_t size)> produce) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  const Location where = Locate(dst);
  if (!where.device) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the output address is not in a live device allocation");
  }
  const int32_t device_id = where.device->id();
  ASCEND_RETURN_IF_ERROR(
      CheckTaskMemory(dst, size, device_id, "the output address"));
  return tasks_.Submit(
      TaskKind::kCopy, "a device write task", std::move(s),
      Task{[this, dst, size, device_id,
            produce = std::move(produce)]() -> absl::Status {
             std::vector<uint8_t> bytes(size);
             produce(bytes.data(), bytes.size());
             return WriteTaskMemory(dst, bytes, device_id,
                                    "the output address");
           },
           nullptr},
      TaskWrites{
          {DeviceRange{device_id, reinterpret_cast<uint64_t>(dst), size}},
          false});
}

}  // namespace ascend::rt
