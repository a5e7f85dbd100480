// Checking helpers of the CANN-style example programs (each example is a
// plain CMake project built against an installed tree, as CANN's are).
#ifndef ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_COMMON_EXAMPLE_UTILS_H_
#define ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_COMMON_EXAMPLE_UTILS_H_

#include <cstdio>

#include "acl/acl.h"

#define EXAMPLE_INFO(fmt, ...) std::printf("[INFO]  " fmt "\n", ##__VA_ARGS__)
#define EXAMPLE_ERROR(fmt, ...) \
  std::fprintf(stdout, "[ERROR] " fmt "\n", ##__VA_ARGS__)

// Returns 1 from main (or the enclosing int function) when `call` fails,
// printing the code and the runtime's message.
#define EXAMPLE_CHECK(call)                                              \
  do {                                                                   \
    const aclError example_ret_ = (call);                                \
    if (example_ret_ != ACL_SUCCESS) {                                   \
      const char* example_msg_ = aclGetRecentErrMsg();                   \
      EXAMPLE_ERROR("%s failed: %d (%s)", #call,                         \
                    static_cast<int>(example_ret_),                      \
                    example_msg_ != nullptr ? example_msg_ : "no text"); \
      return 1;                                                          \
    }                                                                    \
  } while (0)

#endif  // ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_COMMON_EXAMPLE_UTILS_H_
