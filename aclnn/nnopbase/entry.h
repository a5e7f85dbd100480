// How aclnn's C entry points are written (DESIGN.md §5.26): each body is a
// function-try-block closed by ACLNN_ENTRY_CATCH, so no exception (out of
// host memory included) leaves the library; a refusal logs one line through
// the runtime's log (aclAppLog) naming the function and why, and returns
// CANN's code.
//
//   aclnnStatus aclGetFormat(const aclTensor* t, aclFormat* f) try {
//     ACLNN_REQUIRE(IsTensor(t) && f != nullptr, ACLNN_ERR_PARAM_NULLPTR,
//                   "tensor and format must not be null");
//     ...
//   }
//   ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)
#ifndef ASCENDCL_ACLNN_NNOPBASE_ENTRY_H_
#define ASCENDCL_ACLNN_NNOPBASE_ENTRY_H_

#include <string>

#include "acl/acl_base.h"
#include "aclnn/opdev/op_errno.h"

namespace ascend::nn {

// Logs `message` as an error of `api` and returns `code`.
int Refuse(const char* api, int code, const std::string& message);
// Logs `message` as an error of `api` (no code).
void LogError(const char* api, const std::string& message);

}  // namespace ascend::nn

#define ACLNN_REQUIRE(cond, code, message)                                 \
  do {                                                                     \
    if (!(cond)) return ::ascend::nn::Refuse(__func__, (code), (message)); \
  } while (0)

// Closes an entry point's function-try-block: an escaping exception becomes
// `fallback` (a code, or nullptr for the create functions).
#define ACLNN_ENTRY_CATCH(fallback)                            \
  catch (...) {                                                \
    ::ascend::nn::LogError(__func__,                           \
                           "failed: out of host memory or an " \
                           "internal error");                  \
    return fallback;                                           \
  }

#endif  // ASCENDCL_ACLNN_NNOPBASE_ENTRY_H_
