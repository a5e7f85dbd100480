// ACL entry points: process snapshot. ACL checks its own parameters (the
// calling process's pid, NULL reserve/args), then forwards to the RT layer
// and returns its result unchanged.
#include <unistd.h>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/rt_snapshot.h"

namespace {

aclError CheckPid(const char* api, int pid) {
  if (pid != static_cast<int>(getpid())) {
    return ascend::rt::ReportErrorCode(
        api, ACL_ERROR_INVALID_PARAM,
        "pid must be the calling process's id (cross-process snapshot is not "
        "supported)");
  }
  return ACL_SUCCESS;
}

// ACL passes the stage to the RT layer unchanged, which answers 107000 for a
// stage outside [LOCK_PRE, UNLOCK_POST]; an out-of-range value is rejected
// here with that code, before it is loaded as an enum (hence `stage` by
// reference).
aclError CheckStage(const char* api, const aclrtSnapShotStage& stage,
                    rtSnapShotStage* rt_stage) {
  const int32_t raw = ascend::acl::RawEnum(stage);
  if (raw < ACL_RT_SNAPSHOT_LOCK_PRE || raw > ACL_RT_SNAPSHOT_UNLOCK_POST) {
    return ascend::acl::InvalidEnum(api, "stage", "aclrtSnapShotStage", raw,
                                    ACL_ERROR_RT_PARAM_INVALID);
  }
  *rt_stage = static_cast<rtSnapShotStage>(raw);
  return ACL_SUCCESS;
}

aclError RequireNull(const char* api, const void* ptr, const char* name) {
  if (ptr != nullptr) {
    return ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                       std::string(name) + " must be NULL");
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtSnapShotProcessLock(int pid, void* reserve) try {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, reserve, "reserve")) return e;
  return rtSnapShotProcessLock();
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSnapShotProcessUnlock(int pid, void* reserve) try {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, reserve, "reserve")) return e;
  return rtSnapShotProcessUnlock();
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSnapShotProcessBackup(int pid,
                                    aclrtSnapShotBackupArgs* args) try {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, args, "args")) return e;
  return rtSnapShotProcessBackup();
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSnapShotProcessRestore(int pid,
                                     aclrtSnapShotRestoreArgs* args) try {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, args, "args")) return e;
  return rtSnapShotProcessRestore();
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage,
                                       aclrtSnapShotCallBack callback,
                                       void* args) try {
  rtSnapShotStage rt_stage = RT_SNAPSHOT_LOCK_PRE;
  if (aclError e = CheckStage(__func__, stage, &rt_stage)) return e;
  return rtSnapShotCallbackRegister(rt_stage, callback, args);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage,
                                         aclrtSnapShotCallBack callback) try {
  rtSnapShotStage rt_stage = RT_SNAPSHOT_LOCK_PRE;
  if (aclError e = CheckStage(__func__, stage, &rt_stage)) return e;
  return rtSnapShotCallbackUnregister(rt_stage, callback);
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
