// ACL entry points: host functions, report callbacks and error reporting.
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "glog/logging.h"
#include "runtime/base/logging.h"
#include "runtime/host_func/host_func.h"

using ascend::acl::InvalidEnum;
using ascend::acl::InvalidEnumMessage;
using ascend::acl::RawEnum;

namespace {

// The process runtime's host-function family (DESIGN.md §1.7, §5.7).
ascend::rt::HostFuncs& HostFuncs() {
  return ascend::acl::Fam<ascend::rt::HostFuncs>();
}

// aclrtPeekAtLastError / aclrtGetLastError: a bad level is logged but not
// recorded, so the thread's last error stays what it was. `level` is taken by
// reference: passing it by value would load it as the enum.
bool IsThreadLevel(const char* api, const aclrtLastErrLevel& level) {
  const int32_t raw = RawEnum(level);
  if (raw == ACL_RT_THREAD_LEVEL) return true;
  ascend::rt::InitLogging();  // this may be the process's first ACL call
  LOG(ERROR) << api << ": "
             << InvalidEnumMessage("level", "aclrtLastErrLevel", raw)
             << " (error " << ACL_ERROR_INVALID_PARAM << ")";
  return false;
}

}  // namespace

extern "C" {

// Gated although the reference lets it through while locked: a host function
// may write device memory, so admitting one between Backup's drain and its
// copy would let the backup miss a write (DESIGN.md §5.7).
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn,
                             void* args) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(fn);
  return ACL_RESULT(HostFuncs().LaunchHostFunc(stream, fn, args));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData,
                             aclrtCallbackBlockType blockType,
                             aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(fn);
  const int32_t raw_block = RawEnum(blockType);
  if (raw_block != ACL_CALLBACK_NO_BLOCK && raw_block != ACL_CALLBACK_BLOCK) {
    return InvalidEnum(__func__, "blockType", "aclrtCallbackBlockType",
                       raw_block);
  }
  return ACL_RESULT(
      HostFuncs().LaunchCallback(fn, userData, blockType, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) try {
  ACL_GATE();
  return ACL_RESULT(HostFuncs().SubscribeReport(threadId, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) try {
  ACL_GATE();
  return ACL_RESULT(HostFuncs().UnsubscribeReport(threadId, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtProcessReport(int32_t timeout) try {
  // Blocks on entry while the process is locked, like every gated call, but
  // the wait for a report that follows is not a call in progress: the
  // runtime gates only the running of the callback.
  { ACL_GATE(); }
  return ACL_RESULT(HostFuncs().ProcessReport(timeout));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) try {
  if (!IsThreadLevel(__func__, level)) return ACL_ERROR_INVALID_PARAM;
  return ascend::rt::PeekLastError();
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetLastError(aclrtLastErrLevel level) try {
  if (!IsThreadLevel(__func__, level)) return ACL_ERROR_INVALID_PARAM;
  return ascend::rt::TakeLastError();
}
ACL_ENTRY_CATCH(aclError)

const char* aclGetRecentErrMsg(void) try {
  return ascend::rt::RecentErrorMessage();
}
ACL_ENTRY_CATCH(const char*)

}  // extern "C"
