// The RT-layer snapshot entry points declared in runtime/rt_snapshot.h.
#include <cstdint>
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/c_entry.h"
#include "runtime/base/error.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"

using ascend::rt::ReportError;
using ascend::snapshot::Coordinator;

namespace {

// The stage as the integer the caller passed. A C caller may pass any int
// in the enum; loading an out-of-range value as the C++ enum is undefined,
// so the bytes are copied and the registry validates the integer (107000).
int32_t RawStage(const rtSnapShotStage& stage) {
  static_assert(sizeof(stage) == sizeof(int32_t), "a C enum");
  int32_t raw;
  std::memcpy(&raw, &stage, sizeof raw);
  return raw;
}

}  // namespace

extern "C" {

rtError_t rtSnapShotProcessLock(void) try {
  return ReportError(__func__, Coordinator::Get().Lock());
}
ACL_ENTRY_CATCH(rtError_t)

rtError_t rtSnapShotProcessUnlock(void) try {
  return ReportError(__func__, Coordinator::Get().Unlock());
}
ACL_ENTRY_CATCH(rtError_t)

rtError_t rtSnapShotProcessGetState(rtProcessState* state) try {
  if (state == nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                                       "state must not be NULL");
  }
  *state = static_cast<rtProcessState>(Coordinator::Get().GetState());
  return ACL_RT_SUCCESS;
}
ACL_ENTRY_CATCH(rtError_t)

rtError_t rtSnapShotProcessBackup(void) try {
  return ReportError(__func__, Coordinator::Get().Backup());
}
ACL_ENTRY_CATCH(rtError_t)

rtError_t rtSnapShotProcessRestore(void) try {
  return ReportError(__func__, Coordinator::Get().Restore());
}
ACL_ENTRY_CATCH(rtError_t)

rtError_t rtSnapShotCallbackRegister(rtSnapShotStage stage,
                                     rtSnapShotCallBack callback,
                                     void* args) try {
  return ReportError(__func__, Coordinator::Get().RegisterCallback(
                                   RawStage(stage), callback, args));
}
ACL_ENTRY_CATCH(rtError_t)

rtError_t rtSnapShotCallbackUnregister(rtSnapShotStage stage,
                                       rtSnapShotCallBack callback) try {
  return ReportError(__func__, Coordinator::Get().UnregisterCallback(
                                   RawStage(stage), callback));
}
ACL_ENTRY_CATCH(rtError_t)

}  // extern "C"
