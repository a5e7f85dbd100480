// Shared helpers of the ACL C entry points. Each entry point is a few lines:
// gate (if it modifies resources), validate, call the core, map the status.
//
//   aclError aclrtFree(void* devPtr) {
//     ACL_GATE();
//     ACL_REQUIRE_NOT_NULL(devPtr);
//     return ACL_RESULT(Runtime().Free(devPtr));
//   }
#ifndef ASCENDCL_ACL_API_API_UTIL_H_
#define ASCENDCL_ACL_API_API_UTIL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "acl/acl_base.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/runtime.h"

namespace ascend::acl {

inline rt::Runtime& Runtime() { return rt::Runtime::Get(); }

// Deadline for a millisecond timeout where -1 means "wait forever"; nullopt
// for other negative values and 0.
inline bool DeadlineFromTimeout(int32_t timeout_ms, absl::Time* deadline) {
  if (timeout_ms == -1) {
    *deadline = absl::InfiniteFuture();
    return true;
  }
  if (timeout_ms <= 0) return false;
  *deadline = absl::Now() + absl::Milliseconds(timeout_ms);
  return true;
}

}  // namespace ascend::acl

// The snapshot lock check: blocks while the process is LOCKED or BACKED_UP.
#define ACL_GATE() \
  ::ascend::rt::ApiScope acl_gate_scope_(::ascend::rt::GlobalState::Get())

// Maps a status to the entry point's return code, recording failures.
#define ACL_RESULT(expr) ::ascend::rt::ReportError(__func__, (expr))

#define ACL_REQUIRE_NOT_NULL(ptr)                                             \
  do {                                                                        \
    if ((ptr) == nullptr) {                                                   \
      return ::ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM, \
                                           #ptr " must not be NULL");         \
    }                                                                         \
  } while (false)

// Assigns a StatusOr's value to *out, or returns its mapped error.
#define ACL_RETURN_VALUE(out, expr)                                    \
  do {                                                                 \
    auto acl_value_ = (expr);                                          \
    if (!acl_value_.ok()) {                                            \
      return ::ascend::rt::ReportError(__func__, acl_value_.status()); \
    }                                                                  \
    *(out) = *std::move(acl_value_);                                   \
    return ACL_SUCCESS;                                                \
  } while (false)

#endif  // ASCENDCL_ACL_API_API_UTIL_H_
