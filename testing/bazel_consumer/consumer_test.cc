// Uses ascendcl from another Bazel workspace: init, set a device, copy data
// to a device and back, check it, and check the system-information calls.
// Exit status 0 is a pass.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define EXPECT_SUCCESS(call)                                       \
  do {                                                             \
    const aclError ret_ = (call);                                  \
    if (ret_ != ACL_SUCCESS) {                                     \
      std::fprintf(stderr, "FAIL: %s returned %d\n", #call, ret_); \
      return 1;                                                    \
    }                                                              \
  } while (0)

int main() {
  uint32_t count = 0;
  EXPECT_SUCCESS(aclrtGetDeviceCount(&count));
  if (count != 2) {
    std::fprintf(stderr, "FAIL: %u simulated devices, expected 2\n", count);
    return 1;
  }
  const char* soc = aclrtGetSocName();
  int32_t compatible = 0;
  if (soc == nullptr) {
    std::fprintf(stderr, "FAIL: no SoC name\n");
    return 1;
  }
  EXPECT_SUCCESS(aclrtCheckArchCompatibility(soc, &compatible));
  if (compatible != 1) {
    std::fprintf(stderr, "FAIL: %s is not compatible with itself\n", soc);
    return 1;
  }

  EXPECT_SUCCESS(aclInit(nullptr));
  EXPECT_SUCCESS(aclrtSetDevice(1));
  const size_t size = 4096;
  std::vector<int> host(size / sizeof(int)), back(host.size(), 0);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i * i);
  void* dev = nullptr;
  EXPECT_SUCCESS(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_SUCCESS(
      aclrtMemcpy(dev, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_SUCCESS(
      aclrtMemcpy(back.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_SUCCESS(aclrtFree(dev));
  EXPECT_SUCCESS(aclrtResetDevice(1));
  EXPECT_SUCCESS(aclFinalize());
  if (back != host) {
    std::fprintf(stderr, "FAIL: data read back differs\n");
    return 1;
  }
  std::printf("consumer_test: PASS on %s\n", soc);
  return 0;
}
