#include "hccl/core/log.h"

#include "acl/acl_base.h"
#include "device/base/current_exception.h"

namespace ascend::hccl {

HcclResult Refuse(const char* api, HcclResult code, const std::string& why) {
  aclAppLog(ACL_ERROR, api, __FILE__, __LINE__, "%s: %s (HCCL error %d)", api,
            why.c_str(), static_cast<int>(code));
  return code;
}

void LogError(const char* api, const std::string& why) {
  aclAppLog(ACL_ERROR, api, __FILE__, __LINE__, "%s: %s", api, why.c_str());
}

void LogWarning(const char* api, const std::string& why) {
  aclAppLog(ACL_WARNING, api, __FILE__, __LINE__, "%s: %s", api, why.c_str());
}

void LogInfo(const char* api, const std::string& why) {
  aclAppLog(ACL_INFO, api, __FILE__, __LINE__, "%s: %s", api, why.c_str());
}

HcclResult CodeOfCurrentException(const char* api) {
  const CurrentException e = ClassifyCurrentException();
  HcclResult code = HCCL_E_INTERNAL;
  if (e.kind == ExceptionKind::kOutOfHostMemory) code = HCCL_E_OOM;
  if (e.kind == ExceptionKind::kResourceExhausted) code = HCCL_E_UNAVAIL;
  // Logging may itself need memory: a failure there changes nothing.
  try {
    return Refuse(api, code,
                  std::string("failed: ") + e.description + " " + e.what);
  } catch (...) {
    return code;
  }
}

}  // namespace ascend::hccl
