// Logging and the no-throw boundary of libprofapi.so and libmsprofiler.so
// (DESIGN.md §5.24). Lines go through libascendcl.so's aclAppLog, so they
// follow the runtime's logging settings (ASCEND_GLOBAL_LOG_LEVEL, ...,
// DESIGN.md §5.11) and reach no stderr unless asked; these libraries carry
// no logging library of their own.
//
//   aclError aclprofStop(const aclprofConfig* config) try {
//     if (config == nullptr) return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "...");
//     ...
//   }
//   PROF_ENTRY_CATCH(aclError)
#ifndef ASCENDCL_ACL_PROF_PROF_LOG_H_
#define ASCENDCL_ACL_PROF_PROF_LOG_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "acl/acl_base.h"
#include "device/base/current_exception.h"

#if defined(__GLIBCXX__)
#include <cxxabi.h>
#endif

namespace ascend::prof {

// One line at `level`, naming `api`.
inline void Log(aclLogLevel level, const char* api, const std::string& text) {
  aclAppLog(level, api, __FILE__, __LINE__, "%s", text.c_str());
}

// Logs an ERROR line naming `api` and returns `code`.
inline int32_t Fail(const char* api, int32_t code, const std::string& text) {
  Log(ACL_ERROR, api, text + " (code " + std::to_string(code) + ")");
  return code;
}

// The code of the exception being handled, as libascendcl.so's entry
// points map it (DESIGN.md §2.7). Call only inside a handler.
inline int32_t ExceptionCode() noexcept {
  switch (ClassifyCurrentException().kind) {
    case ExceptionKind::kOutOfHostMemory:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case ExceptionKind::kResourceExhausted:
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    default:
      return ACL_ERROR_RT_INTERNAL_ERROR;
  }
}

template <typename T>
T EntryFailure(const char* api) noexcept {
  const int32_t code = ExceptionCode();
  try {
    Log(ACL_ERROR, api,
        "failed with an exception (code " + std::to_string(code) + ")");
  } catch (...) {
  }
  if constexpr (std::is_void_v<T>) {
    return;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return code;
  } else {
    return T{};
  }
}

}  // namespace ascend::prof

#define PROF_FAIL(code, text) ::ascend::prof::Fail(__func__, (code), (text))

#if defined(__GLIBCXX__)
#define PROF_RETHROW_FORCED_UNWIND  \
  catch (::abi::__forced_unwind&) { \
    throw;                          \
  }
#else
#define PROF_RETHROW_FORCED_UNWIND
#endif

// Closes an exported function's function-try-block (`type`: its return
// type): an escaping exception becomes a code, one log line and T{}.
#define PROF_ENTRY_CATCH(type)                           \
  PROF_RETHROW_FORCED_UNWIND                             \
  catch (...) {                                          \
    return ::ascend::prof::EntryFailure<type>(__func__); \
  }

// The same, returning `value`.
#define PROF_ENTRY_CATCH_RETURN(value)            \
  PROF_RETHROW_FORCED_UNWIND                      \
  catch (...) {                                   \
    ::ascend::prof::EntryFailure<void>(__func__); \
    return value;                                 \
  }

#endif  // ASCENDCL_ACL_PROF_PROF_LOG_H_
