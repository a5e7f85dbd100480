// Device query: the SoC name (which must be the SOC_VERSION the environment
// script exported), the devices, their memory and the runtime version.
#include "common/example_utils.h"

int main() {
  EXAMPLE_CHECK(aclInit(nullptr));
  const char* soc = aclrtGetSocName();
  if (soc == nullptr) {
    EXAMPLE_ERROR("aclrtGetSocName returned NULL");
    return 1;
  }
  std::printf("SoC name: %s\n", soc);
  int32_t compatible = 0;
  EXAMPLE_CHECK(aclrtCheckArchCompatibility(soc, &compatible));
  std::printf("Arch compatible: %d\n", compatible);

  uint32_t count = 0;
  EXAMPLE_CHECK(aclrtGetDeviceCount(&count));
  std::printf("Device count: %u\n", count);
  for (uint32_t i = 0; i < count && i < 2; ++i) {
    const int32_t device = static_cast<int32_t>(i);
    EXAMPLE_CHECK(aclrtSetDevice(device));
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    EXAMPLE_CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
    EXAMPLE_INFO("device %d: %zu of %zu bytes free", device, free_bytes,
                 total_bytes);
    if (total_bytes == 0 || free_bytes > total_bytes) {
      EXAMPLE_ERROR("implausible memory figures");
      return 1;
    }
    EXAMPLE_CHECK(aclrtResetDevice(device));
  }

  // The installed package's version ($ASCEND_HOME_PATH/share/info).
  char package[] = "runtime";
  char version[ACL_PKG_VERSION_MAX_SIZE] = {0};
  EXAMPLE_CHECK(aclsysGetVersionStr(package, version));
  std::printf("Runtime version: %s\n", version);
  EXAMPLE_CHECK(aclFinalize());
  std::printf("Device query: done\n");
  return 0;
}
