// ACL entry points: task exception callbacks and the fields of
// aclrtExceptionInfo (DESIGN.md §5.16).
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/exception_info.h"

using ascend::rt::ExceptionCallbacks;

namespace {

// What the getters answer for a NULL info (the reference's "device
// exception" value).
constexpr uint32_t kNoInfo = 0xFFFFFFFFu;

uint32_t Field(const char* api, const aclrtExceptionInfo* info,
               uint32_t rtExceptionInfo::*field) {
  if (info == nullptr) {
    ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                "info must not be NULL");
    return kNoInfo;
  }
  return info->*field;
}

}  // namespace

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  ExceptionCallbacks::Process().Set(callback);
  return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(
    aclrtExceptionInfoCallback callback) {
  ACL_REQUIRE_NOT_NULL(callback);
  ExceptionCallbacks::Process().Register(callback);
  return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackUnregister(
    aclrtExceptionInfoCallback callback) {
  ACL_REQUIRE_NOT_NULL(callback);
  ExceptionCallbacks::Process().Unregister(callback);
  return ACL_SUCCESS;
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return Field(__func__, info, &rtExceptionInfo::task_id);
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return Field(__func__, info, &rtExceptionInfo::stream_id);
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return Field(__func__, info, &rtExceptionInfo::thread_id);
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return Field(__func__, info, &rtExceptionInfo::device_id);
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  return Field(__func__, info, &rtExceptionInfo::error_code);
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info,
                                       void** devArgsPtr,
                                       uint32_t* devArgsLen) {
  ACL_REQUIRE_NOT_NULL(info);
  ACL_REQUIRE_NOT_NULL(devArgsPtr);
  ACL_REQUIRE_NOT_NULL(devArgsLen);
  *devArgsPtr = info->args;
  *devArgsLen = info->args_len;
  return ACL_SUCCESS;
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info,
                                             aclrtFuncHandle* func) {
  ACL_REQUIRE_NOT_NULL(info);
  ACL_REQUIRE_NOT_NULL(func);
  *func = info->func;
  return ACL_SUCCESS;
}

}  // extern "C"
