// Host -> device -> device -> host on one stream, asynchronously, then a
// byte-for-byte comparison.
#include <cstring>
#include <vector>

#include "common/example_utils.h"

int main() {
  constexpr size_t kBytes = 1 << 20;
  const int32_t device = 0;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));

  void* host_in = nullptr;
  void* host_out = nullptr;
  EXAMPLE_CHECK(aclrtMallocHost(&host_in, kBytes));
  EXAMPLE_CHECK(aclrtMallocHost(&host_out, kBytes));
  auto* in = static_cast<unsigned char*>(host_in);
  for (size_t i = 0; i < kBytes; ++i) in[i] = static_cast<unsigned char>(i * 7);
  std::memset(host_out, 0, kBytes);

  void* dev_a = nullptr;
  void* dev_b = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(&dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMemcpyAsync(dev_a, kBytes, host_in, kBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXAMPLE_CHECK(aclrtMemcpyAsync(dev_b, kBytes, dev_a, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  EXAMPLE_CHECK(aclrtMemcpyAsync(host_out, kBytes, dev_b, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));

  const bool equal = std::memcmp(host_in, host_out, kBytes) == 0;
  std::printf("Copied bytes: %zu\n", kBytes);
  std::printf("Copy result: %s\n", equal ? "equal" : "different");

  EXAMPLE_CHECK(aclrtFree(dev_a));
  EXAMPLE_CHECK(aclrtFree(dev_b));
  EXAMPLE_CHECK(aclrtFreeHost(host_in));
  EXAMPLE_CHECK(aclrtFreeHost(host_out));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return equal ? 0 : 1;
}
