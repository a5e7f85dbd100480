// The device information and settings family (DESIGN.md §1.7, §5.12): the
// process settings the configuration calls store (device_settings.h), the
// free resource ids of the current device, and the device-state tasks the
// settings calls enqueue on a stream. It reaches the core only through
// Runtime's public interface and the task path.
//
//   DeviceInfo& info = *DeviceInfo::Of(runtime);
//   ASCEND_RETURN_IF_ERROR(info.settings().SetDeviceCores(0, CoreKind::kCube,
//                                                         8));
#ifndef ASCENDCL_RUNTIME_DEVICE_INFO_DEVICE_INFO_H_
#define ASCENDCL_RUNTIME_DEVICE_INFO_DEVICE_INFO_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device.h"
#include "runtime/device_info/device_settings.h"
#include "runtime/family.h"

namespace ascend::rt {

class DeviceInfo final : public Family {
 public:
  explicit DeviceInfo(Runtime& runtime);
  DeviceInfo(const DeviceInfo&) = delete;
  DeviceInfo& operator=(const DeviceInfo&) = delete;
  ~DeviceInfo() override;

  // The family of `runtime`, or null when it was built without it.
  static DeviceInfo* Of(const Runtime& runtime);

  DeviceSettings& settings() { return settings_; }
  // How many more objects of `kind` the current device can hold (207000
  // when the backend cannot tell).
  absl::StatusOr<uint32_t> AvailableIds(device::ResourceKind kind);
  // Enqueues `run` on `stream` (null: the current default stream).
  absl::Status EnqueueStreamTask(void* stream,
                                 std::function<absl::Status()> run);
  // Enqueues on `stream` a write of `size` bytes to device memory at `dst`
  // (which must lie in a live allocation); the bytes are `produce`'s when the
  // task runs, in stream order.
  absl::Status EnqueueDeviceWrite(
      void* stream, void* dst, size_t size,
      std::function<void(uint8_t* bytes, size_t size)> produce);

  // --- Device status and peer access (peer_access.cc) ----------------------
  // Whether a health event or an injected fault marked the device abnormal
  // (107001 for an id out of range).
  absl::StatusOr<bool> DeviceAbnormal(int32_t device_id) const;
  absl::StatusOr<bool> CanAccessPeer(int32_t device_id, int32_t peer) const;
  // Enables (disables) the current device's access to `peer`.
  absl::Status EnablePeerAccess(int32_t peer, uint32_t flags);
  absl::Status DisablePeerAccess(int32_t peer);
  // Whether peer access between two devices is enabled (either direction);
  // 107000 for an id out of range.
  absl::StatusOr<bool> PeerAccessStatus(int32_t device_id, int32_t peer) const;

 private:
  Runtime& runtime_;
  DeviceSettings settings_;
  // The runtime's device close observer that drops a closed device's
  // settings.
  uint64_t close_observer_ = 0;
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration DeviceInfoFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_DEVICE_INFO_DEVICE_INFO_H_
