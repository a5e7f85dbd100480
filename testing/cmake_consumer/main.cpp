// An ACL host program in the style of CANN's samples: report the package
// version and SoC, then init, set a device, copy host -> device -> device ->
// host, verify, and clean up. Prints "VERDICT: PASS" on success.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) \
  std::fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) \
  std::fprintf(stdout, "[ERROR]  " fmt "\n", ##__VA_ARGS__)
#define CHECK_ERROR(call)                                                    \
  do {                                                                       \
    const aclError ret_ = (call);                                            \
    if (ret_ != ACL_SUCCESS) {                                               \
      ERROR_LOG("Operation failed: %s returned error code %d", #call, ret_); \
      return -1;                                                             \
    }                                                                        \
  } while (0)

namespace {

int ReportEnvironment() {
  char pkg[] = "runtime";
  char version[ACL_PKG_VERSION_MAX_SIZE] = {0};
  int32_t versionNum = 0;
  CHECK_ERROR(aclsysGetVersionStr(pkg, version));
  CHECK_ERROR(aclsysGetVersionNum(pkg, &versionNum));
  INFO_LOG("CANN package [runtime] version %s (%d)", version, versionNum);
  const char* soc = aclrtGetSocName();
  if (soc == nullptr) {
    ERROR_LOG("aclrtGetSocName returned NULL");
    return -1;
  }
  int32_t compatible = 0;
  CHECK_ERROR(aclrtCheckArchCompatibility(soc, &compatible));
  INFO_LOG("SoC %s, compatible with itself: %d", soc, compatible);
  return compatible == 1 ? 0 : -1;
}

int CopyRoundTrip(size_t size) {
  std::vector<uint8_t> host(size), back(size, 0);
  for (size_t i = 0; i < size; ++i) host[i] = static_cast<uint8_t>(i * 7 + 3);
  void* dev_a = nullptr;
  void* dev_b = nullptr;
  CHECK_ERROR(aclrtMalloc(&dev_a, size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMalloc(&dev_b, size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(
      aclrtMemcpy(dev_a, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ERROR(
      aclrtMemcpy(dev_b, size, dev_a, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
  CHECK_ERROR(
      aclrtMemcpy(back.data(), size, dev_b, size, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ERROR(aclrtFree(dev_a));
  CHECK_ERROR(aclrtFree(dev_b));
  if (back != host) {
    ERROR_LOG("data read back differs from data written");
    return -1;
  }
  INFO_LOG("%zu bytes copied host -> device -> device -> host and verified",
           size);
  return 0;
}

}  // namespace

int main() {
  constexpr int32_t deviceId = 0;
  if (ReportEnvironment() != 0) return 1;
  CHECK_ERROR(aclInit(nullptr));
  CHECK_ERROR(aclrtSetDevice(deviceId));
  const int copied = CopyRoundTrip(1 << 20);
  CHECK_ERROR(aclrtResetDevice(deviceId));
  CHECK_ERROR(aclFinalize());
  if (copied != 0) return 1;
  std::printf("VERDICT: PASS\n");
  return 0;
}
