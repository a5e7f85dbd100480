// ACL entry points: stream configuration handles (aclrtCreateStreamV2),
// stream attributes, stream state callbacks and host-function threads
// (DESIGN.md §5.13).
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "device/base/mutex.h"
#include "runtime/host_func/host_func.h"
#include "runtime/streams/streams.h"

using ascend::acl::Fam;
using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;

namespace {

// The process runtime's host-function family (DESIGN.md §1.7, §5.7).
ascend::rt::HostFuncs& HostFuncs() {
  return ascend::acl::Fam<ascend::rt::HostFuncs>();
}

// The configuration handles aclrtCreateStreamConfigHandle made and
// aclrtDestroyStreamConfigHandle has not freed: a destroy of anything else
// (twice, or a caller's own struct) is refused instead of freeing it.
class ConfigHandles {
 public:
  static ConfigHandles& Get() {
    static ConfigHandles* handles = new ConfigHandles();
    return *handles;
  }
  aclrtStreamConfigHandle* Create() {
    auto* handle = new (std::nothrow) aclrtStreamConfigHandle();
    if (handle == nullptr) return nullptr;
    std::memset(handle, 0, sizeof *handle);
    ascend::MutexLock lock(&mu_);
    live_.insert(handle);
    return handle;
  }
  bool Destroy(aclrtStreamConfigHandle* handle) {
    {
      ascend::MutexLock lock(&mu_);
      if (live_.erase(handle) == 0) return false;
    }
    delete handle;
    return true;
  }

 private:
  ascend::Mutex mu_;
  absl::flat_hash_set<aclrtStreamConfigHandle*> live_ ABSL_GUARDED_BY(mu_);
};

bool IsStreamConfigAttr(int32_t attr) {
  return attr >= ACL_RT_STREAM_WORK_ADDR_PTR && attr <= ACL_RT_STREAM_PRIORITY;
}

bool IsStreamAttr(int32_t attr) {
  return attr >= ACL_STREAM_ATTR_FAILURE_MODE &&
         attr <= ACL_STREAM_ATTR_PRIORITY;
}

aclError BadValueSize(const char* api, const char* attr, size_t size,
                      size_t expected) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_INVALID_PARAM,
      std::string("valueSize ") + std::to_string(size) + " of " + attr +
          " must be " + std::to_string(expected));
}

}  // namespace

extern "C" {

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) try {
  aclrtStreamConfigHandle* handle = ConfigHandles::Get().Create();
  if (handle == nullptr) {
    ascend::rt::ReportErrorCode(__func__, ACL_ERROR_BAD_ALLOC,
                                "out of host memory");
  }
  return handle;
}
ACL_ENTRY_CATCH(aclrtStreamConfigHandle*)

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) try {
  ACL_REQUIRE_NOT_NULL(handle);
  if (!ConfigHandles::Get().Destroy(handle)) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        "handle was not made by aclrtCreateStreamConfigHandle, or is "
        "destroyed already");
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// Configuration only: nothing is created until aclrtCreateStreamV2.
aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle,
                                 aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize) try {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(attrValue);
  const int32_t raw_attr = RawEnum(attr);
  if (!IsStreamConfigAttr(raw_attr)) {
    return InvalidEnum(__func__, "attr", "aclrtStreamConfigAttr", raw_attr);
  }
  switch (raw_attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
      if (valueSize != sizeof(void*)) {
        return BadValueSize(__func__, "ACL_RT_STREAM_WORK_ADDR_PTR", valueSize,
                            sizeof(void*));
      }
      std::memcpy(&handle->workptr, attrValue, sizeof(void*));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_SIZE:
      if (valueSize != sizeof(size_t)) {
        return BadValueSize(__func__, "ACL_RT_STREAM_WORK_SIZE", valueSize,
                            sizeof(size_t));
      }
      std::memcpy(&handle->workSize, attrValue, sizeof(size_t));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_FLAG:
      // The handle's field is a size_t; CANN's own stream sample passes a
      // uint32_t, so both widths are taken (DESIGN.md §5.13).
      if (valueSize == sizeof(size_t)) {
        std::memcpy(&handle->flag, attrValue, sizeof(size_t));
      } else if (valueSize == sizeof(uint32_t)) {
        uint32_t flag;
        std::memcpy(&flag, attrValue, sizeof flag);
        handle->flag = flag;
      } else {
        return BadValueSize(__func__, "ACL_RT_STREAM_FLAG", valueSize,
                            sizeof(size_t));
      }
      return ACL_SUCCESS;
    default: {  // ACL_RT_STREAM_PRIORITY
      if (valueSize != sizeof(uint32_t)) {
        return BadValueSize(__func__, "ACL_RT_STREAM_PRIORITY", valueSize,
                            sizeof(uint32_t));
      }
      uint32_t priority;
      std::memcpy(&priority, attrValue, sizeof priority);
      if (priority > 7) {
        return ascend::rt::ReportErrorCode(
            __func__, ACL_ERROR_INVALID_PARAM,
            "stream priority " + std::to_string(priority) + " outside [0, 7]");
      }
      handle->priority = priority;
      return ACL_SUCCESS;
    }
  }
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateStreamV2(aclrtStream* stream,
                             const aclrtStreamConfigHandle* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ascend::rt::StreamConfig config;  // a null handle: the defaults
  if (handle != nullptr) {
    if (handle->flag > UINT32_MAX) {
      return ascend::rt::ReportErrorCode(
          __func__, ACL_ERROR_INVALID_PARAM,
          "stream flag " + std::to_string(handle->flag) +
              " does not fit the 32 bits of a stream's flags");
    }
    config.priority = handle->priority;
    config.flags = static_cast<uint32_t>(handle->flag);
    config.work_ptr = handle->workptr;
    config.work_size = handle->workSize;
  }
  ACL_RETURN_VALUE(stream,
                   Fam<ascend::rt::Streams>().CreateStreamWithConfig(config));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetStreamAttribute(aclrtStream stream,
                                 aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  const int32_t raw_attr = RawEnum(stmAttrType);
  if (!IsStreamAttr(raw_attr)) {
    return InvalidEnum(__func__, "stmAttrType", "aclrtStreamAttr", raw_attr,
                       ACL_ERROR_RT_PARAM_INVALID);
  }
  return ACL_RESULT(Fam<ascend::rt::Streams>().SetStreamAttribute(
      stream, stmAttrType, *value));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetStreamAttribute(aclrtStream stream,
                                 aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  const int32_t raw_attr = RawEnum(stmAttrType);
  if (!IsStreamAttr(raw_attr)) {
    return InvalidEnum(__func__, "stmAttrType", "aclrtStreamAttr", raw_attr,
                       ACL_ERROR_RT_PARAM_INVALID);
  }
  ACL_RETURN_VALUE(value, Fam<ascend::rt::Streams>().GetStreamAttribute(
                              stream, stmAttrType));
}
ACL_ENTRY_CATCH(aclError)

// Not gated: the reference's variant behind this entry point does not block
// while the process is locked, and a registration changes no device state.
aclError aclrtRegStreamStateCallback(const char* regName,
                                     aclrtStreamStateCallback callback,
                                     void* args) try {
  ACL_REQUIRE_NOT_NULL(regName);
  if (regName[0] == '\0') {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "regName must not be empty");
  }
  return ACL_RESULT(Fam<ascend::rt::Streams>().RegisterStreamStateCallback(
      regName, callback, args));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId,
                                aclrtStream exeStream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(exeStream);
  return ACL_RESULT(HostFuncs().SubscribeHostFunc(hostFuncThreadId, exeStream));
}
ACL_ENTRY_CATCH(aclError)

// As aclrtProcessReport: the entry blocks while the process is locked, the
// wait for a host function that follows is not a call in progress, and the
// runtime gates the running of the function (Runtime::ProcessHostFunc).
aclError aclrtProcessHostFunc(int32_t timeout) try {
  { ACL_GATE(); }
  return ACL_RESULT(HostFuncs().ProcessHostFunc(timeout));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId,
                                  aclrtStream exeStream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(exeStream);
  return ACL_RESULT(
      HostFuncs().UnsubscribeHostFunc(hostFuncThreadId, exeStream));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
