// ACL entry points: built-in tasks (reduction, random numbers), task ids,
// device task abort and the device-state / task-abort callbacks
// (DESIGN.md §5.16).
#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/builtin_task/builtin_task.h"
#include "runtime/device_callbacks.h"
#include "runtime/exception_info.h"
#include "runtime/host_func/host_func.h"

using ascend::acl::Fam;
using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;

namespace {

// The process runtime's built-in task family (DESIGN.md §1.7, §5.16).
ascend::rt::BuiltinTasks& BuiltinTasks() {
  return ascend::acl::Fam<ascend::rt::BuiltinTasks>();
}

bool IsReduceKind(int32_t raw) {
  return raw >= ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM &&
         raw <= ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL;
}

// A value of aclDataType (supported by a given call or not).
bool IsDataType(int32_t raw) {
  switch (raw) {
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_INT8:
    case ACL_INT32:
    case ACL_UINT8:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_UINT32:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_BOOL:
    case ACL_STRING:
    case ACL_COMPLEX64:
    case ACL_COMPLEX128:
    case ACL_BF16:
    case ACL_INT4:
    case ACL_UINT1:
    case ACL_COMPLEX32:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
    case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1:
    case ACL_FLOAT4_E1M2:
      return true;
    default:
      return false;
  }
}

// A registration name: not NULL, not empty.
aclError CheckRegName(const char* api, const char* name) {
  if (name == nullptr || name[0] == '\0') {
    return ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                       "regName must be a non-empty string");
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count,
                          aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(dst);
  ACL_REQUIRE_NOT_NULL(src);
  if (reserve != nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "reserve must be NULL");
  }
  const int32_t raw_kind = RawEnum(kind);
  if (!IsReduceKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtReduceKind", raw_kind);
  }
  const int32_t raw_type = RawEnum(type);
  if (!IsDataType(raw_type)) {
    return InvalidEnum(__func__, "type", "aclDataType", raw_type);
  }
  return ACL_RESULT(
      BuiltinTasks().ReduceAsync(dst, src, count, kind, type, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo,
                             const aclrtStream stream, void* reserve) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(taskInfo);
  if (reserve != nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "reserve must be NULL");
  }
  // The struct is read as raw bytes first: its enum members may hold any
  // integer a C caller stored.
  aclrtRandomNumTaskInfo info;
  std::memcpy(&info, taskInfo, sizeof info);
  const int32_t raw_type = RawEnum(info.dataType);
  if (!IsDataType(raw_type)) {
    return InvalidEnum(__func__, "taskInfo->dataType", "aclDataType", raw_type);
  }
  const int32_t raw_func = RawEnum(info.randomNumFuncParaInfo.funcType);
  if (raw_func < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ||
      raw_func > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS) {
    return InvalidEnum(__func__, "taskInfo->randomNumFuncParaInfo.funcType",
                       "aclrtRandomNumFuncType", raw_func,
                       ACL_ERROR_RT_PARAM_INVALID);
  }
  return ACL_RESULT(BuiltinTasks().RandomNumAsync(info, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) try {
  ACL_REQUIRE_NOT_NULL(taskId);
  *taskId = ascend::rt::ThreadLastTaskId();
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) try {
  ACL_GATE();
  return ACL_RESULT(BuiltinTasks().DeviceTaskAbort(deviceId, timeout));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRegDeviceStateCallback(const char* regName,
                                     aclrtDeviceStateCallback callback,
                                     void* args) try {
  if (aclError error = CheckRegName(__func__, regName)) return error;
  return ACL_RESULT(
      Fam<ascend::rt::HostFuncs>().device_callbacks().RegisterState(
          regName, callback, args));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetDeviceTaskAbortCallback(const char* regName,
                                         aclrtDeviceTaskAbortCallback callback,
                                         void* args) try {
  if (aclError error = CheckRegName(__func__, regName)) return error;
  return ACL_RESULT(
      Fam<ascend::rt::HostFuncs>().device_callbacks().RegisterTaskAbort(
          regName, callback, args));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
