// Peer access between devices and a device's health mark, as the device
// management calls see them (aclrtDeviceCanAccessPeer,
// aclrtDeviceEnablePeerAccess, aclrtDeviceDisablePeerAccess,
// aclrtDevicePeerAccessStatus, aclrtGetDeviceStatus): part of the device
// information family (runtime/device_info/device_info.h). The enabled pairs
// and the marks are the core's device entries (reached through
// Runtime::CoreAccess): a copy checks them (Runtime::PeerAccessEnabled) and
// a device reset clears them.
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "runtime/internal/core_access.h"
#include "runtime/runtime.h"

namespace ascend::rt {

using Core = Runtime::CoreAccess;

absl::StatusOr<bool> DeviceInfo::DeviceAbnormal(int32_t device_id) const {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(device_id));
  ascend::MutexLock lock(&Core::Lock(runtime_));
  return Core::Device(runtime_, device_id).abnormal;
}

absl::StatusOr<bool> DeviceInfo::CanAccessPeer(int32_t device_id,
                                               int32_t peer) const {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(device_id));
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(peer));
  if (device_id == peer) return false;
  return runtime_.backend()->CanAccessPeer(device_id, peer);
}

absl::Status DeviceInfo::EnablePeerAccess(int32_t peer, uint32_t flags) {
  if (flags != 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "peer access flags must be 0");
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(bool can, CanAccessPeer(device_id, peer));
  if (!can) {
    return Error(
        ACL_ERROR_RT_INVALID_DEVICEID,
        absl::StrCat("device ", device_id, " cannot access device ", peer));
  }
  ascend::MutexLock lock(&Core::Lock(runtime_));
  Core::Device(runtime_, device_id).peers.insert(peer);
  return absl::OkStatus();
}

absl::Status DeviceInfo::DisablePeerAccess(int32_t peer) {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(peer));
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ascend::MutexLock lock(&Core::Lock(runtime_));
  if (Core::Device(runtime_, device_id).peers.erase(peer) == 0) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("peer access to device ", peer, " is not enabled"));
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> DeviceInfo::PeerAccessStatus(int32_t device_id,
                                                  int32_t peer) const {
  if (device_id < 0 || device_id >= runtime_.DeviceCount() || peer < 0 ||
      peer >= runtime_.DeviceCount()) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("device ids ", device_id, " and ", peer,
                     " must lie in [0, ", runtime_.DeviceCount(), ")"));
  }
  if (device_id == peer) return false;
  // One-directional (04 device management, aclrtDeviceEnablePeerAccess):
  // device_id enabled access to peer; peer enabling device_id is the other
  // direction.
  ascend::MutexLock lock(&Core::Lock(runtime_));
  return Core::Device(runtime_, device_id).peers.contains(peer);
}

}  // namespace ascend::rt
