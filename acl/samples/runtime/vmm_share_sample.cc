// Two processes sharing physical device memory by shareable handle, as in
// CANN's physical-memory sharing examples: process A allocates and maps
// physical memory, fills it, exports it, and (in the "withpid" round) adds
// process B to the whitelist; process B (this program run again with
// arguments) imports the handle, maps it into its own reservation, checks
// A's bytes and writes an answer into the second half, which A then reads.
// A second round shares the same way without pid validation.
//
//   vmm_share_sample                          process A: both rounds
//   vmm_share_sample import <handle> <go_fd>  process B (started by A)
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

extern char** environ;

namespace {

constexpr uint8_t kFromA = 0xA5;
constexpr uint8_t kFromB = 0x5B;

aclrtPhysicalMemProp DeviceProp() {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  return prop;
}

// Whether every byte of [ptr, ptr + size) on the device is `value`.
bool AllBytes(const void* ptr, size_t size, uint8_t value) {
  std::vector<uint8_t> host(size);
  if (aclrtMemcpy(host.data(), size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST) !=
      ACL_SUCCESS) {
    return false;
  }
  for (uint8_t b : host) {
    if (b != value) return false;
  }
  return true;
}

// --- Process B
// ----------------------------------------------------------------

int Import(uint64_t shareable, int go_fd) {
  CHECK_ERROR(aclrtSetDevice(0));
  int32_t pid = 0;
  CHECK_ERROR(aclrtDeviceGetBareTgid(&pid));
  // A whitelists us (or not) before telling us to go.
  char go = 0;
  if (read(go_fd, &go, 1) != 1) return -1;
  INFO_LOG("Process B (%d): importing shareable handle %llu", pid,
           static_cast<unsigned long long>(shareable));
  aclrtDrvMemHandle handle = nullptr;
  CHECK_ERROR(aclrtMemImportFromShareableHandle(shareable, 0, &handle));
  aclrtPhysicalMemProp prop = DeviceProp();
  size_t granularity = 0;
  CHECK_ERROR(aclrtMemGetAllocationGranularity(
      &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  void* va = nullptr;
  CHECK_ERROR(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0));
  CHECK_ERROR(aclrtMapMem(va, granularity, 0, handle, 0));
  aclrtMemAccessDesc access = {};
  access.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  access.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = 0;
  CHECK_ERROR(aclrtMemSetAccess(va, granularity, &access, 1));
  const size_t half = granularity / 2;
  if (!AllBytes(va, half, kFromA)) {
    ERROR_LOG("Process B: the shared memory does not hold A's bytes");
    return -1;
  }
  INFO_LOG("Process B: read A's bytes at %p", va);
  CHECK_ERROR(aclrtMemset(static_cast<char*>(va) + half, half, kFromB, half));
  CHECK_ERROR(aclrtUnmapMem(va));
  CHECK_ERROR(aclrtReleaseMemAddress(va));
  CHECK_ERROR(aclrtFreePhysical(handle));
  CHECK_ERROR(aclrtResetDeviceForce(0));
  return 0;
}

// --- Process A
// ----------------------------------------------------------------

const char* g_self = nullptr;

// One round: export, start B, whitelist it when `with_pid`, wait for it.
int Round(bool with_pid) {
  aclrtPhysicalMemProp prop = DeviceProp();
  size_t granularity = 0;
  CHECK_ERROR(aclrtMemGetAllocationGranularity(
      &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  aclrtDrvMemHandle handle = nullptr;
  CHECK_ERROR(aclrtMallocPhysical(&handle, granularity, &prop, 0));
  void* va = nullptr;
  CHECK_ERROR(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0));
  CHECK_ERROR(aclrtMapMem(va, granularity, 0, handle, 0));
  const size_t half = granularity / 2;
  CHECK_ERROR(aclrtMemset(va, granularity, kFromA, half));
  CHECK_ERROR(aclrtMemset(static_cast<char*>(va) + half, half, 0, half));
  uint64_t shareable = 0;
  CHECK_ERROR(aclrtMemExportToShareableHandle(
      handle, ACL_MEM_HANDLE_TYPE_NONE,
      with_pid ? ACL_RT_VMM_EXPORT_FLAG_DEFAULT
               : ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
      &shareable));
  INFO_LOG("Process A: exported shareable handle %llu (%s pid validation)",
           static_cast<unsigned long long>(shareable),
           with_pid ? "with" : "without");

  int go[2];
  if (pipe(go) != 0) return -1;
  const std::string handle_text = std::to_string(shareable);
  const std::string fd_text = std::to_string(go[0]);
  char* args[] = {const_cast<char*>(g_self), const_cast<char*>("import"),
                  const_cast<char*>(handle_text.c_str()),
                  const_cast<char*>(fd_text.c_str()), nullptr};
  pid_t b = 0;
  if (posix_spawn(&b, g_self, nullptr, nullptr, args, environ) != 0) {
    ERROR_LOG("cannot start process B");
    return -1;
  }
  close(go[0]);
  if (with_pid) {
    int32_t pid = static_cast<int32_t>(b);
    CHECK_ERROR(aclrtMemSetPidToShareableHandle(shareable, &pid, 1));
    INFO_LOG("Process A: added process B (%d) to the whitelist", pid);
  }
  (void)!write(go[1], "g", 1);
  close(go[1]);
  int status = 0;
  if (waitpid(b, &status, 0) != b || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    ERROR_LOG("process B failed");
    return -1;
  }
  const bool answered = AllBytes(static_cast<char*>(va) + half, half, kFromB) &&
                        AllBytes(va, half, kFromA);
  INFO_LOG("Process A: B's answer %s", answered ? "arrived" : "is missing");
  CHECK_ERROR(aclrtUnmapMem(va));
  CHECK_ERROR(aclrtReleaseMemAddress(va));
  CHECK_ERROR(aclrtFreePhysical(handle));
  return answered ? 0 : -1;
}

int RunA() {
  CHECK_ERROR(aclrtSetDevice(0));
  if (Round(/*with_pid=*/true) != 0) return -1;
  if (Round(/*with_pid=*/false) != 0) return -1;
  CHECK_ERROR(aclrtResetDeviceForce(0));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  g_self = argv[0];
  if (argc == 4 && std::strcmp(argv[1], "import") == 0) {
    if (aclInit(nullptr) != ACL_SUCCESS) return 1;
    const int result =
        Import(std::strtoull(argv[2], nullptr, 10), std::atoi(argv[3]));
    (void)aclFinalize();
    return result == 0 ? 0 : 1;
  }
  return RunSample(RunA);
}
