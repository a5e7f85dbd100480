// Our own snapshot entry points, declared in ascendcl/snapshot.h.
#include <cstddef>
#include <cstring>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "ascendcl/snapshot.h"
#include "runtime/base/c_entry.h"
#include "runtime/base/error.h"
#include "snapshot/coordinator.h"

extern "C" {

aclError ascendclSnapshotGetReport(char* json, size_t size,
                                   size_t* needed) try {
  if (needed == nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                                       "needed must not be NULL");
  }
  const std::string report =
      ascend::snapshot::Coordinator::Get().LastReport().ToJson();
  *needed = report.size() + 1;
  if (json == nullptr || size < *needed) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        "the report needs " + std::to_string(*needed) + " bytes, " +
            (json == nullptr ? std::string("json is NULL")
                             : std::to_string(size) + " were given"));
  }
  std::memcpy(json, report.c_str(), *needed);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclSnapshotPrecopy(void) try {
  return ascend::rt::ReportError(
      __func__, ascend::snapshot::Coordinator::Get().Precopy());
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
