// What every ACL sample here shares, in the style of CANN's sample utils:
// log macros, CHECK_ERROR for ACL calls, and a main() body that initialises
// ACL, runs the sample and prints the verdict the sample tests look for.
//
//   int Run() { CHECK_ERROR(aclrtSetDevice(0)); ...; return 0; }
//   int main() { return RunSample(Run); }
#ifndef ASCENDCL_ACL_SAMPLES_COMMON_SAMPLE_UTILS_H_
#define ASCENDCL_ACL_SAMPLES_COMMON_SAMPLE_UTILS_H_

#include <cstdio>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) \
  std::fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) \
  std::fprintf(stdout, "[ERROR]  " fmt "\n", ##__VA_ARGS__)

// Logs a failing ACL call and returns -1 from the enclosing function.
#define CHECK_ERROR(call)                                             \
  do {                                                                \
    aclError check_ret_ = (call);                                     \
    if (check_ret_ != ACL_SUCCESS) {                                  \
      ERROR_LOG("Operation failed: %s returned error code %d", #call, \
                check_ret_);                                          \
      return -1;                                                      \
    }                                                                 \
  } while (0)

// Prints the verdict line and returns main()'s exit status.
inline int Verdict(bool pass) {
  std::printf("VERDICT: %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

// aclInit, run() (0 = success), aclFinalize, then the verdict.
inline int RunSample(int (*run)()) {
  if (aclInit(nullptr) != ACL_SUCCESS) {
    ERROR_LOG("aclInit failed");
    return Verdict(false);
  }
  bool pass = run() == 0;
  pass = aclFinalize() == ACL_SUCCESS && pass;
  return Verdict(pass);
}

#endif  // ASCENDCL_ACL_SAMPLES_COMMON_SAMPLE_UTILS_H_
