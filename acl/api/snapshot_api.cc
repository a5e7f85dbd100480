// ACL entry points: process snapshot. ACL checks its own parameters (the
// calling process's pid, NULL reserve/args), then forwards to the RT layer
// and returns its result unchanged.
#include <unistd.h>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
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

aclError RequireNull(const char* api, const void* ptr, const char* name) {
  if (ptr != nullptr) {
    return ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                       std::string(name) + " must be NULL");
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtSnapShotProcessLock(int pid, void* reserve) {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, reserve, "reserve")) return e;
  return rtSnapShotProcessLock();
}

aclError aclrtSnapShotProcessUnlock(int pid, void* reserve) {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, reserve, "reserve")) return e;
  return rtSnapShotProcessUnlock();
}

aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args) {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, args, "args")) return e;
  return rtSnapShotProcessBackup();
}

aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args) {
  if (aclError e = CheckPid(__func__, pid)) return e;
  if (aclError e = RequireNull(__func__, args, "args")) return e;
  return rtSnapShotProcessRestore();
}

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage,
                                       aclrtSnapShotCallBack callback,
                                       void* args) {
  return rtSnapShotCallbackRegister(static_cast<rtSnapShotStage>(stage),
                                    callback, args);
}

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage,
                                         aclrtSnapShotCallBack callback) {
  return rtSnapShotCallbackUnregister(static_cast<rtSnapShotStage>(stage),
                                      callback);
}

}  // extern "C"
