#include "runtime/base/c_entry.h"

#include <cerrno>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"

namespace ascend::rt {
namespace {

bool IsResourceExhaustion(const std::error_code& code) {
  return code == std::errc::resource_unavailable_try_again ||
         code == std::errc::not_enough_memory ||
         code == std::errc::too_many_files_open ||
         code == std::errc::too_many_files_open_in_system;
}

// The code and a short description of the exception being handled. `what`
// points into the exception object, which lives until the handler ends.
int32_t Classify(const char** kind, const char** what) noexcept {
  *kind = "unknown exception";
  *what = "";
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    *kind = "out of host memory";
    *what = e.what();
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  } catch (const std::length_error& e) {
    *kind = "out of host memory";
    *what = e.what();
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  } catch (const std::system_error& e) {
    *what = e.what();
    if (IsResourceExhaustion(e.code())) {
      *kind = "system resource exhausted";
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    *kind = "system error";
    return ACL_ERROR_RT_INTERNAL_ERROR;
  } catch (const std::exception& e) {
    *kind = "internal error";
    *what = e.what();
    return ACL_ERROR_RT_INTERNAL_ERROR;
  } catch (...) {
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
