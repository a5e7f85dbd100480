// ACL entry points: devices and contexts.
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/device_info/device_info.h"
#include "runtime/streams/streams.h"

using ascend::acl::Fam;
using ascend::acl::Runtime;

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) try {
  ACL_GATE();
  return ACL_RESULT(Runtime().SetDevice(deviceId));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetDevice(int32_t deviceId) try {
  ACL_GATE();
  return ACL_RESULT(Runtime().ResetDevice(deviceId, /*force=*/false));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetDeviceForce(int32_t deviceId) try {
  ACL_GATE();
  return ACL_RESULT(Runtime().ResetDevice(deviceId, /*force=*/true));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetDevice(int32_t* deviceId) try {
  ACL_REQUIRE_NOT_NULL(deviceId);
  ACL_RETURN_VALUE(deviceId, ascend::acl::CurrentDeviceId());
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetDeviceCount(uint32_t* count) try {
  ACL_REQUIRE_NOT_NULL(count);
  *count = static_cast<uint32_t>(ascend::acl::DeviceCount());
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSynchronizeDevice(void) try {
  return ACL_RESULT(ascend::acl::Fam<ascend::rt::Streams>().SynchronizeDevice(
      absl::InfiniteFuture()));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) try {
  absl::Time deadline;
  if (!ascend::acl::DeadlineFromTimeout(timeout, &deadline)) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "timeout must be -1 or positive");
  }
  absl::Status status =
      ascend::acl::Fam<ascend::rt::Streams>().SynchronizeDevice(deadline);
  if (status.code() == absl::StatusCode::kDeadlineExceeded) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, status.message());
  }
  return ACL_RESULT(status);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtQueryDeviceStatus(int32_t deviceId,
                                aclrtDeviceStatus* deviceStatus) try {
  ACL_REQUIRE_NOT_NULL(deviceStatus);
  absl::StatusOr<bool> abnormal =
      Fam<ascend::rt::DeviceInfo>().DeviceAbnormal(deviceId);
  if (!abnormal.ok()) return ACL_RESULT(abnormal.status());
  *deviceStatus =
      *abnormal ? ACL_RT_DEVICE_STATUS_ABNORMAL : ACL_RT_DEVICE_STATUS_NORMAL;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId,
                                  int32_t peerDeviceId) try {
  ACL_REQUIRE_NOT_NULL(canAccessPeer);
  // 04, aclrtDeviceCanAccessPeer: the two ids must differ.
  if (deviceId == peerDeviceId) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        "deviceId and peerDeviceId must be different devices");
  }
  absl::StatusOr<bool> can =
      Fam<ascend::rt::DeviceInfo>().CanAccessPeer(deviceId, peerDeviceId);
  if (!can.ok()) return ACL_RESULT(can.status());
  *canAccessPeer = *can ? 1 : 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) try {
  return ACL_RESULT(
      Fam<ascend::rt::DeviceInfo>().EnablePeerAccess(peerDeviceId, flags));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) try {
  return ACL_RESULT(
      Fam<ascend::rt::DeviceInfo>().DisablePeerAccess(peerDeviceId));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(context);
  ACL_RETURN_VALUE(context, Fam<ascend::rt::Streams>().CreateContext(deviceId));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyContext(aclrtContext context) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(context);
  return ACL_RESULT(Fam<ascend::rt::Streams>().DestroyContext(context));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetCurrentContext(aclrtContext context) try {
  ACL_REQUIRE_NOT_NULL(context);
  return ACL_RESULT(Fam<ascend::rt::Streams>().SetCurrentContext(context));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetCurrentContext(aclrtContext* context) try {
  ACL_REQUIRE_NOT_NULL(context);
  ACL_RETURN_VALUE(context, Fam<ascend::rt::Streams>().GetCurrentContext());
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) try {
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_RETURN_VALUE(stream, Fam<ascend::rt::Streams>().CurrentDefaultStream());
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority,
                                           int32_t* greatestPriority) try {
  ACL_REQUIRE_NOT_NULL(leastPriority);
  ACL_REQUIRE_NOT_NULL(greatestPriority);
  *leastPriority = 7;
  *greatestPriority = 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
