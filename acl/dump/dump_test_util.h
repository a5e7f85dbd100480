// Helpers of the dump tests that drive the C API (the tests link
// libascendcl.so and libascend_dump.so, as programs do).
#ifndef ASCENDCL_ACL_DUMP_DUMP_TEST_UTIL_H_
#define ASCENDCL_ACL_DUMP_DUMP_TEST_UTIL_H_

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "gtest/gtest.h"

namespace ascend::dump_test {

inline std::string g_kernels;  // test_kernels.so, the first argument

inline std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

// A fresh directory under the test's temporary directory.
inline std::string NewDir(const std::string& name) {
  const std::string dir = TempDir() + "/" + name;
  mkdir(dir.c_str(), 0750);
  return dir;
}

inline std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A device buffer holding `values`.
inline float* DeviceFloats(const std::vector<float>& values) {
  void* p = nullptr;
  const size_t bytes = values.size() * sizeof(float);
  EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  EXPECT_EQ(
      aclrtMemcpy(p, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
      0);
  return static_cast<float*>(p);
}

// A raw device tensor of acl_dump.h.
inline acldumpTensorInfo Tensor(acldumpTensorType type, void* address,
                                size_t bytes, uint64_t dim) {
  acldumpTensorInfo t;
  std::memset(&t, 0, sizeof t);
  t.type = type;
  t.tensorSize = bytes;
  t.format = ACL_FORMAT_ND;
  t.dataType = ACL_FLOAT;
  t.tensorAddr = static_cast<int64_t*>(address);
  t.addrType = ACL_DUMP_ADDR_RAW;
  t.placement = ACL_DUMP_PLACEMENT_DEVICE;
  t.shapeNum = 1;
  t.originShapeNum = 1;
  t.shape[0] = dim;
  t.originShape[0] = dim;
  return t;
}

// The arguments of test_kernels.so's vadd.
struct VaddArgs {
  const float* x;
  const float* y;
  float* z;
  uint32_t n;
};

}  // namespace ascend::dump_test

#endif  // ASCENDCL_ACL_DUMP_DUMP_TEST_UTIL_H_
