// The RT-layer snapshot entry points declared in runtime/rt_snapshot.h.
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"

using ascend::rt::ReportError;
using ascend::snapshot::Coordinator;

extern "C" {

rtError_t rtSnapShotProcessLock(void) {
  return ReportError(__func__, Coordinator::Get().Lock());
}

rtError_t rtSnapShotProcessUnlock(void) {
  return ReportError(__func__, Coordinator::Get().Unlock());
}

rtError_t rtSnapShotProcessGetState(rtProcessState* state) {
  if (state == nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                                       "state must not be NULL");
  }
  *state = static_cast<rtProcessState>(Coordinator::Get().GetState());
  return ACL_RT_SUCCESS;
}

rtError_t rtSnapShotProcessBackup(void) {
  return ReportError(__func__, Coordinator::Get().Backup());
}

rtError_t rtSnapShotProcessRestore(void) {
  return ReportError(__func__, Coordinator::Get().Restore());
}

rtError_t rtSnapShotCallbackRegister(rtSnapShotStage stage,
                                     rtSnapShotCallBack callback, void* args) {
  return ReportError(
      __func__, Coordinator::Get().RegisterCallback(stage, callback, args));
}

rtError_t rtSnapShotCallbackUnregister(rtSnapShotStage stage,
                                       rtSnapShotCallBack callback) {
  return ReportError(__func__,
                     Coordinator::Get().UnregisterCallback(stage, callback));
}

}  // extern "C"
