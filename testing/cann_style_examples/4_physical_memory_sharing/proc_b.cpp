// Process B of physical memory sharing: hand over its pid (mode "withpid"),
// import A's shareable handle, map it into its own reservation, read the
// value A wrote, tell A it is done.
//
//   proc_b withpid|withoutpid
#include <string>

#include "common/example_utils.h"
#include "common/file_handshake.h"

int main(int argc, char** argv) {
  const bool with_pid = argc > 1 && std::string(argv[1]) == "withpid";
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  if (with_pid) {
    int32_t pid = 0;
    EXAMPLE_CHECK(aclrtDeviceGetBareTgid(&pid));
    if (!HandOver("file/pid.bin", &pid, sizeof pid)) return 1;
  }
  uint64_t shareable = 0;
  if (!TakeOver("file/handle.bin", &shareable, sizeof shareable)) return 1;
  aclrtDrvMemHandle handle = nullptr;
  EXAMPLE_CHECK(aclrtMemImportFromShareableHandle(shareable, 0, &handle));
  aclrtPhysicalMemProp prop = {};
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  size_t granularity = 0;
  EXAMPLE_CHECK(aclrtMemGetAllocationGranularity(
      &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  void* va = nullptr;
  EXAMPLE_CHECK(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0));
  EXAMPLE_CHECK(aclrtMapMem(va, granularity, 0, handle, 0));
  int value = 0;
  EXAMPLE_CHECK(aclrtMemcpy(&value, sizeof value, va, sizeof value,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXAMPLE_INFO("Destination data: %d", value);
  EXAMPLE_CHECK(aclrtUnmapMem(va));
  EXAMPLE_CHECK(aclrtReleaseMemAddress(va));
  EXAMPLE_CHECK(aclrtFreePhysical(handle));
  const int done = 1;
  if (!HandOver("file/flag.bin", &done, sizeof done)) return 1;
  EXAMPLE_CHECK(aclrtResetDeviceForce(0));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
