// What both TDT libraries share (DESIGN.md §5.23): the no-throw boundary of
// their C entry points, their log lines, timeouts, and the few runtime calls
// they make through the public C API.
//
// The TDT libraries sit on top of libascendcl.so and reach the runtime only
// through its public C API (aclrt*), so they speak aclError throughout and
// log through aclAppLog, the runtime's own logger.
//
//   acltdtDataset* acltdtCreateDataset(void) try {
//     ...
//   }
//   TDT_ENTRY_CATCH(acltdtDataset*)
#ifndef ASCENDCL_ACL_TDT_TDT_UTIL_H_
#define ASCENDCL_ACL_TDT_TDT_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/time/time.h"
#include "acl/acl_base.h"

#if defined(__GLIBCXX__)
#include <cxxabi.h>
#endif

namespace ascend::tdt {

// Logs one line naming `api` at ERROR (WARNING for LogWarning) and returns
// `code` (Reject). Never throws.
aclError Reject(const char* api, aclError code, const std::string& message);
void LogWarning(const char* api, const std::string& message);
void LogInfo(const char* api, const std::string& message);

// The code for the exception being handled, as the runtime maps it (DESIGN.md
// §2.7): out of memory 207001, exhausted system resources 207005, anything
// else 507000; logged once, naming `api`. Call only inside a handler.
aclError ReportEntryException(const char* api) noexcept;

template <typename T>
T EntryFailure(const char* api) noexcept {
  const aclError code = ReportEntryException(api);
  if constexpr (std::is_void_v<T>) {
    return;
  } else if constexpr (std::is_same_v<T, aclError>) {
    return code;
  } else {
    static_cast<void>(code);
    return T{};
  }
}

// A timeout argument is -1 (for good), 0 (no wait) or a positive number of
// milliseconds.
inline bool ValidTimeout(int32_t timeout) { return timeout >= -1; }
absl::Time DeadlineFor(int32_t timeout);

// Whether `ptr` is device memory (aclrtPointerGetAttributes: not HOST and not
// UNREGISTERED). Its code when the pointer cannot be classified.
aclError IsDeviceMemory(const void* ptr, bool* device);

// Copies n bytes between host memory and memory that may be the device's:
// aclrtMemcpy when a side is device memory (it waits at the runtime's gate
// while the process is snapshot-locked), memcpy otherwise.
aclError CopyToHost(void* host_dst, const void* src, size_t n,
                    bool src_is_device);
aclError CopyFromHost(void* dst, const void* host_src, size_t n,
                      bool dst_is_device);

// Frees shared buffers the library owns and no longer needs, outside every
// lock of the library (aclrtFreeBuf waits while the process is locked). A
// buffer the runtime refuses to free now (207006 for stream work after a
// Backup's drain, DESIGN.md §4.3) is kept and freed by a later call.
void ReleaseBuffers(const std::vector<void*>& buffers);

}  // namespace ascend::tdt

#if defined(__GLIBCXX__)
#define TDT_ENTRY_RETHROW_FORCED_UNWIND \
  catch (::abi::__forced_unwind&) {     \
    throw;                              \
  }
#else
#define TDT_ENTRY_RETHROW_FORCED_UNWIND
#endif

// Closes an exported function's function-try-block; `type` is its return
// type (see the file comment).
#define TDT_ENTRY_CATCH(type)                           \
  TDT_ENTRY_RETHROW_FORCED_UNWIND                       \
  catch (...) {                                         \
    return ::ascend::tdt::EntryFailure<type>(__func__); \
  }

// The same, for a function whose failure value is not T{}.
#define TDT_ENTRY_CATCH_RETURN(value)                                 \
  TDT_ENTRY_RETHROW_FORCED_UNWIND                                     \
  catch (...) {                                                       \
    static_cast<void>(::ascend::tdt::ReportEntryException(__func__)); \
    return value;                                                     \
  }

#endif  // ASCENDCL_ACL_TDT_TDT_UTIL_H_
