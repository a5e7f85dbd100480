// Process A of physical memory sharing, in the sequence of CANN's examples
// 7_physical_memory_sharing_withpid / 8_..._withoutpid: allocate physical
// memory, map it, write a value (a copy here, where CANN's example runs a
// kernel), export a shareable handle, whitelist process B (mode "withpid"),
// hand the handle over, wait for B, then unmap and free.
//
//   proc_a withpid|withoutpid
#include <cstring>
#include <string>

#include "common/example_utils.h"
#include "common/file_handshake.h"

int main(int argc, char** argv) {
  const bool with_pid = argc > 1 && std::string(argv[1]) == "withpid";
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  size_t granularity = 0;
  EXAMPLE_CHECK(aclrtMemGetAllocationGranularity(
      &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  aclrtDrvMemHandle handle = nullptr;
  EXAMPLE_CHECK(aclrtMallocPhysical(&handle, granularity, &prop, 0));
  void* va = nullptr;
  EXAMPLE_CHECK(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0));
  EXAMPLE_CHECK(aclrtMapMem(va, granularity, 0, handle, 0));
  aclrtMemAccessDesc access = {};
  access.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  access.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = 0;
  EXAMPLE_CHECK(aclrtMemSetAccess(va, granularity, &access, 1));
  const int value = 123;
  EXAMPLE_CHECK(aclrtMemcpy(va, granularity, &value, sizeof value,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  EXAMPLE_INFO("Source data: %d", value);

  uint64_t shareable = 0;
  EXAMPLE_CHECK(aclrtMemExportToShareableHandle(
      handle, ACL_MEM_HANDLE_TYPE_NONE,
      with_pid ? ACL_RT_VMM_EXPORT_FLAG_DEFAULT
               : ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
      &shareable));
  if (with_pid) {
    int32_t pid = 0;
    if (!TakeOver("file/pid.bin", &pid, sizeof pid)) return 1;
    EXAMPLE_CHECK(aclrtMemSetPidToShareableHandle(shareable, &pid, 1));
    EXAMPLE_INFO("Process A: whitelisted process B (%d)", pid);
  }
  if (!HandOver("file/handle.bin", &shareable, sizeof shareable)) return 1;
  int done = 0;
  if (!TakeOver("file/flag.bin", &done, sizeof done)) return 1;
  EXAMPLE_CHECK(aclrtUnmapMem(va));
  EXAMPLE_CHECK(aclrtReleaseMemAddress(va));
  EXAMPLE_CHECK(aclrtFreePhysical(handle));
  EXAMPLE_CHECK(aclrtResetDeviceForce(0));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
