// The no-throw boundary of every exported C entry point (DESIGN.md §2.7).
//
// Each exported function's body is a function-try-block closed by
// ACL_ENTRY_CATCH(return type), or ACL_ENTRY_CATCH_RETURN(value) where the
// function documents another failure value:
//
//   aclError aclrtFree(void* devPtr) try {
//     ...
//   }
//   ACL_ENTRY_CATCH(aclError)
//
// A C++ exception escaping the body becomes an ACL code, one log line and the
// thread's last error (ReportEntryException); the function then returns that
// code (aclError / rtError_t), nothing (void) or the neutral value of its
// return type, T{} (nullptr, 0, false). The body's locals, the gate's scope
// included, are destroyed before the handler runs.
// //acl:c_entry_test fails when an exported function is defined without it.
#ifndef ASCENDCL_RUNTIME_BASE_C_ENTRY_H_
#define ASCENDCL_RUNTIME_BASE_C_ENTRY_H_

#include <cstdint>
#include <type_traits>

#if defined(__GLIBCXX__)
#include <cxxabi.h>
#endif

namespace ascend::rt {

// The ACL code for the exception being handled: std::bad_alloc and
// std::length_error → ACL_ERROR_RT_MEMORY_ALLOCATION (207001); a
// std::system_error saying a system resource ran out (EAGAIN, ENOMEM, EMFILE,
// ENFILE: std::thread's resource_unavailable_try_again among them) →
// ACL_ERROR_RT_RESOURCE_ALLOC_FAIL (207005); anything else →
// ACL_ERROR_RT_INTERNAL_ERROR (507000). Call only inside a handler.
int32_t EntryExceptionCode() noexcept;

// Maps the exception being handled with EntryExceptionCode, logs one line
// naming `api` and the exception and records it as the calling thread's last
// error, as ReportErrorCode does; returns the code. Never throws: when there
// is no memory even for the log line, it returns the code unrecorded. Call
// only inside a handler.
int32_t ReportEntryException(const char* api) noexcept;

// What an entry point returning T answers after an exception: the code for
// aclError / rtError_t (int32_t), nothing for void, T{} otherwise.
template <typename T>
T EntryFailure(const char* api) noexcept {
  const int32_t code = ReportEntryException(api);
  if constexpr (std::is_void_v<T>) {
    return;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return code;
  } else {
    static_cast<void>(code);
    return T{};
  }
}

}  // namespace ascend::rt

// A thread cancellation unwinds with abi::__forced_unwind, which must not be
// swallowed (the process would abort): it goes on.
#if defined(__GLIBCXX__)
#define ACL_ENTRY_RETHROW_FORCED_UNWIND \
  catch (::abi::__forced_unwind&) {     \
    throw;                              \
  }
#else
#define ACL_ENTRY_RETHROW_FORCED_UNWIND
#endif

// Closes an exported function's function-try-block; `type` is its return
// type. See the file comment.
#define ACL_ENTRY_CATCH(type)                          \
  ACL_ENTRY_RETHROW_FORCED_UNWIND                      \
  catch (...) {                                        \
    return ::ascend::rt::EntryFailure<type>(__func__); \
  }

// The same, for a function whose documented failure value is not T{} (e.g.
// 0xFFFFFFFF): reports the exception and returns `value`.
#define ACL_ENTRY_CATCH_RETURN(value)                                \
  ACL_ENTRY_RETHROW_FORCED_UNWIND                                    \
  catch (...) {                                                      \
    static_cast<void>(::ascend::rt::ReportEntryException(__func__)); \
    return value;                                                    \
  }

#endif  // ASCENDCL_RUNTIME_BASE_C_ENTRY_H_
