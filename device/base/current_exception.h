// What the exception being handled is, for the C entry points of every
// library (libascendcl.so, the TDT and profiling libraries), which each map
// it to their codes (DESIGN.md §2.7): out of host memory, a system resource
// exhausted (EAGAIN, ENOMEM, EMFILE, ENFILE: threads, memory, descriptors),
// another system error, another exception. Header-only, depending on
// nothing, so every layer may use it.
//
//   } catch (...) {
//     const ascend::CurrentException e = ascend::ClassifyCurrentException();
//     return e.kind == ascend::ExceptionKind::kOutOfHostMemory ? ... : ...;
//   }
#ifndef ASCENDCL_DEVICE_BASE_CURRENT_EXCEPTION_H_
#define ASCENDCL_DEVICE_BASE_CURRENT_EXCEPTION_H_

#include <exception>
#include <new>
#include <stdexcept>
#include <system_error>

namespace ascend {

enum class ExceptionKind {
  kOutOfHostMemory,    // std::bad_alloc, std::length_error
  kResourceExhausted,  // std::system_error of EAGAIN, ENOMEM, EMFILE, ENFILE
  kSystemError,        // another std::system_error
  kInternal,           // another std::exception
  kUnknown,            // anything else
};

struct CurrentException {
  ExceptionKind kind;
  const char* description;  // a short phrase for the kind
  const char* what;  // the exception's what(), or ""; lives while it is handled
};

// Call only inside a handler (`catch`): rethrows and classifies.
inline CurrentException ClassifyCurrentException() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    return {ExceptionKind::kOutOfHostMemory, "out of host memory", e.what()};
  } catch (const std::length_error& e) {
    return {ExceptionKind::kOutOfHostMemory, "out of host memory", e.what()};
  } catch (const std::system_error& e) {
    const std::error_code& c = e.code();
    if (c == std::errc::resource_unavailable_try_again ||
        c == std::errc::not_enough_memory ||
        c == std::errc::too_many_files_open ||
        c == std::errc::too_many_files_open_in_system) {
      return {ExceptionKind::kResourceExhausted, "system resource exhausted",
              e.what()};
    }
    return {ExceptionKind::kSystemError, "system error", e.what()};
  } catch (const std::exception& e) {
    return {ExceptionKind::kInternal, "internal error", e.what()};
  } catch (...) {
    return {ExceptionKind::kUnknown, "unknown exception", ""};
  }
}

}  // namespace ascend

#endif  // ASCENDCL_DEVICE_BASE_CURRENT_EXCEPTION_H_
