// How libhccl.so reports (DESIGN.md §5.27): one line per refusal or failure
// through the runtime's log (aclAppLog), naming the function and why, and
// CANN's code returned. C entry points are function-try-blocks closed by
// HCCL_ENTRY_CATCH, so no exception (out of host memory included) leaves the
// library.
//
//   HcclResult HcclGetRankSize(HcclComm comm, uint32_t* n) try {
//     HCCL_REQUIRE(n != nullptr, HCCL_E_PTR, "rankSize is NULL");
//     ...
//   }
//   HCCL_ENTRY_CATCH()
#ifndef ASCENDCL_HCCL_CORE_LOG_H_
#define ASCENDCL_HCCL_CORE_LOG_H_

#include <string>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

// Logs `why` as an error of `api` and returns `code`.
HcclResult Refuse(const char* api, HcclResult code, const std::string& why);
void LogError(const char* api, const std::string& why);
void LogWarning(const char* api, const std::string& why);
void LogInfo(const char* api, const std::string& why);

// The code for the exception being handled (call only inside `catch`):
// HCCL_E_OOM when host memory ran out, HCCL_E_UNAVAIL when a system resource
// did (threads, descriptors), else HCCL_E_INTERNAL; logged under `api`.
HcclResult CodeOfCurrentException(const char* api);

}  // namespace ascend::hccl

#define HCCL_REQUIRE(cond, code, why)                                    \
  do {                                                                   \
    if (!(cond)) return ::ascend::hccl::Refuse(__func__, (code), (why)); \
  } while (0)

// As HCCL_REQUIRE, logging under `api` (for helpers of entry points).
#define HCCL_REQUIRE_AS(api, cond, code, why)                         \
  do {                                                                \
    if (!(cond)) return ::ascend::hccl::Refuse((api), (code), (why)); \
  } while (0)

#define HCCL_RETURN_IF_ERROR(expr)                         \
  do {                                                     \
    const HcclResult hccl_result_ = (expr);                \
    if (hccl_result_ != HCCL_SUCCESS) return hccl_result_; \
  } while (0)

#define HCCL_ENTRY_CATCH()                                   \
  catch (...) {                                              \
    return ::ascend::hccl::CodeOfCurrentException(__func__); \
  }

#endif  // ASCENDCL_HCCL_CORE_LOG_H_
