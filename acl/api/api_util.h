// Shared helpers of the ACL C entry points. Each entry point is a few lines:
// gate (if it modifies resources), validate, call the core or a family (Fam),
// map the status;
// its body is a function-try-block closed by ACL_ENTRY_CATCH
// (runtime/base/c_entry.h), which turns an escaping exception into a code.
//
//   aclError aclrtDestroyContext(aclrtContext context) try {
//     ACL_GATE();
//     ACL_REQUIRE_NOT_NULL(context);
//     return ACL_RESULT(Fam<ascend::rt::Streams>().DestroyContext(context));
//   }
//   ACL_ENTRY_CATCH(aclError)
#ifndef ASCENDCL_ACL_API_API_UTIL_H_
#define ASCENDCL_ACL_API_API_UTIL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "acl/acl_base.h"
#include "runtime/base/c_entry.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/runtime.h"

namespace ascend::acl {

// The process runtime: for what is the core's own (devices, the task path,
// resolving a stream).
inline rt::Runtime& Runtime() { return rt::Runtime::Get(); }

// The family F of the process runtime (runtime/family.h), which has every
// family of runtime/process/families.cc: what the other entry points call.
template <typename F>
F& Fam() {
  return *F::Of(rt::Runtime::Get());
}
// The same, or null when the process runtime lacks it (for entry points that
// say so instead of failing).
template <typename F>
F* FamIfPresent() {
  return F::Of(rt::Runtime::Get());
}

// The device of the calling thread's current context (or the default
// device), and how many devices the process runtime has.
inline absl::StatusOr<int32_t> CurrentDeviceId() {
  return rt::Runtime::Get().GetDevice();
}
inline int32_t DeviceCount() { return rt::Runtime::Get().DeviceCount(); }

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

// The integer a C caller passed for an enum parameter. C lets any int travel
// in an enum object; in C++ merely loading an enum object whose value lies
// outside the enum's range is undefined (clang's -fsanitize=enum traps on it),
// so an entry point copies the parameter's bytes, validates the integer, and
// only then uses the parameter as the enum. A helper that validates must take
// the parameter by reference: passing it by value loads it.
//
//   const int32_t raw_kind = RawEnum(kind);
//   if (!IsMemcpyKind(raw_kind)) {
//     return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
//   }
template <typename E>
int32_t RawEnum(const E& value) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int32_t),
                "a C enum parameter");
  int32_t raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

inline std::string InvalidEnumMessage(const char* param, const char* type,
                                      int32_t raw) {
  return std::string(param) + " " + std::to_string(raw) + " is not a valid " +
         type;
}

// Rejects an out-of-range enum argument: logs it, records it as the thread's
// last error and returns `code`.
inline aclError InvalidEnum(const char* api, const char* param,
                            const char* type, int32_t raw,
                            aclError code = ACL_ERROR_INVALID_PARAM) {
  return rt::ReportErrorCode(api, code, InvalidEnumMessage(param, type, raw));
}

// The answer of an entry point this runtime does not provide (yet): logs one
// line naming `api`, records ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) as the
// thread's last error and returns it. Never throws.
inline aclError NotSupported(const char* api) noexcept {
  try {
    return rt::ReportErrorCode(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                               "not supported by this runtime");
  } catch (...) {
    return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
  }
}

}  // namespace ascend::acl

// The snapshot lock check: blocks while the process is LOCKED or BACKED_UP.
// A call made by a task running on a stream proceeds instead until a Backup
// has drained the streams, and is then refused with 207006 (DESIGN.md §4.3);
// on the RUNNING fast path the refusal check folds away.
#define ACL_GATE()                                   \
  ::ascend::rt::ProcessApiScope acl_gate_scope_;     \
  if (ABSL_PREDICT_FALSE(acl_gate_scope_.refused())) \
  return ::ascend::rt::ReportError(__func__, ::ascend::rt::GateRefusal())

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
