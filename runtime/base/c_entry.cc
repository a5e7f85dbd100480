#include "runtime/base/c_entry.h"

#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "device/base/current_exception.h"
#include "runtime/base/error.h"

namespace ascend::rt {
namespace {

// The code and a short description of the exception being handled. `what`
// points into the exception object, which lives until the handler ends.
int32_t Classify(const char** kind, const char** what) noexcept {
  const CurrentException e = ClassifyCurrentException();
  *kind = e.description;
  *what = e.what;
  switch (e.kind) {
    case ExceptionKind::kOutOfHostMemory:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case ExceptionKind::kResourceExhausted:
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    default:
      return ACL_ERROR_RT_INTERNAL_ERROR;
  }
}

}  // namespace

int32_t EntryExceptionCode() noexcept {
  const char* kind;
  const char* what;
  return Classify(&kind, &what);
}

int32_t ReportEntryException(const char* api) noexcept {
  const char* kind;
  const char* what;
  const int32_t code = Classify(&kind, &what);
  try {
    std::string message = std::string(kind) + " (" + what + ")";
    // One line, whatever the exception's text holds.
    for (char& c : message) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    return ReportErrorCode(api != nullptr ? api : "", code, message);
  } catch (...) {
    // No memory for the message: the code alone, as the caller's answer.
  }
  try {
    return ReportErrorCode(api != nullptr ? api : "", code, kind);
  } catch (...) {
    return code;
  }
}

}  // namespace ascend::rt
