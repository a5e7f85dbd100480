// ACL entry points: host functions, report callbacks and error reporting.
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"

using ascend::acl::Runtime;

extern "C" {

// Gated although the reference lets it through while locked: a host function
// may write device memory, so admitting one between Backup's drain and its
// copy would let the backup miss a write (CONTRACT item 15).
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(fn);
  return ACL_RESULT(Runtime().LaunchHostFunc(stream, fn, args));
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData,
                             aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(fn);
  return ACL_RESULT(Runtime().LaunchCallback(fn, userData, blockType, stream));
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACL_GATE();
  return ACL_RESULT(Runtime().SubscribeReport(threadId, stream));
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACL_GATE();
  return ACL_RESULT(Runtime().UnsubscribeReport(threadId, stream));
}

aclError aclrtProcessReport(int32_t timeout) {
  ACL_GATE();
  return ACL_RESULT(Runtime().ProcessReport(timeout));
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  return ascend::rt::PeekLastError();
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  return ascend::rt::TakeLastError();
}

const char* aclGetRecentErrMsg(void) {
  return ascend::rt::RecentErrorMessage();
}

}  // extern "C"
