// ACL entry points: task exception callbacks and the fields of
// aclrtExceptionInfo (DESIGN.md §5.16).
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/exception_info.h"
#include "runtime/host_func/host_func.h"

using ascend::rt::ExceptionCallbacks;

namespace {

// The process runtime's exception callbacks (DESIGN.md §1.4).
ExceptionCallbacks& Callbacks() {
  return ascend::acl::Fam<ascend::rt::HostFuncs>().exception_callbacks();
}

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

aclError aclrtSetExceptionInfoCallback(
    aclrtExceptionInfoCallback callback) try {
  Callbacks().Set(callback);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtExceptionInfoCallbackRegister(
    aclrtExceptionInfoCallback callback) try {
  ACL_REQUIRE_NOT_NULL(callback);
  Callbacks().Register(callback);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtExceptionInfoCallbackUnregister(
    aclrtExceptionInfoCallback callback) try {
  ACL_REQUIRE_NOT_NULL(callback);
  Callbacks().Unregister(callback);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::task_id);
}
ACL_ENTRY_CATCH_RETURN(kNoInfo)

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::stream_id);
}
ACL_ENTRY_CATCH_RETURN(kNoInfo)

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::thread_id);
}
ACL_ENTRY_CATCH_RETURN(kNoInfo)

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::device_id);
}
ACL_ENTRY_CATCH_RETURN(kNoInfo)

uint32_t aclrtGetErrorCodeFromExceptionInfo(
    const aclrtExceptionInfo* info) try {
  return Field(__func__, info, &rtExceptionInfo::error_code);
}
ACL_ENTRY_CATCH_RETURN(kNoInfo)

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info,
                                       void** devArgsPtr,
                                       uint32_t* devArgsLen) try {
  ACL_REQUIRE_NOT_NULL(info);
  ACL_REQUIRE_NOT_NULL(devArgsPtr);
  ACL_REQUIRE_NOT_NULL(devArgsLen);
  *devArgsPtr = info->args;
  *devArgsLen = info->args_len;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info,
                                             aclrtFuncHandle* func) try {
  ACL_REQUIRE_NOT_NULL(info);
  ACL_REQUIRE_NOT_NULL(func);
  *func = info->func;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
