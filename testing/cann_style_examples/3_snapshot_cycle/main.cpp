// A process snapshot: device memory and a stream survive Lock -> Backup ->
// device memory loss -> Restore -> Unlock at the same address, and the stage
// callbacks run once per open device at each stage.
#include <unistd.h>

#include <cstring>
#include <vector>

#include "aclsim/aclsim.h"
#include "common/example_utils.h"

namespace {

int g_calls[6] = {0, 0, 0, 0, 0, 0};

uint32_t CountStage(int32_t, void* args) {
  ++g_calls[*static_cast<int*>(args)];
  return 0;
}

}  // namespace

int main() {
  constexpr size_t kBytes = 4096;
  const int32_t device = 0;
  const int pid = static_cast<int>(getpid());
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));

  static int stages[6] = {0, 1, 2, 3, 4, 5};
  for (int s = 0; s < 6; ++s) {
    EXAMPLE_CHECK(aclrtSnapShotCallbackRegister(
        static_cast<aclrtSnapShotStage>(s), CountStage, &stages[s]));
  }

  std::vector<unsigned char> pattern(kBytes);
  for (size_t i = 0; i < kBytes; ++i) {
    pattern[i] = static_cast<unsigned char>(i ^ 0x5a);
  }
  void* dev = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMemcpy(dev, kBytes, pattern.data(), kBytes,
                            ACL_MEMCPY_HOST_TO_DEVICE));

  EXAMPLE_CHECK(aclrtSnapShotProcessLock(pid, nullptr));
  EXAMPLE_CHECK(aclrtSnapShotProcessBackup(pid, nullptr));
  // The simulator forgets the device's memory, as a device reset would.
  EXAMPLE_CHECK(aclsimInjectFault(device, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  EXAMPLE_CHECK(aclrtSnapShotProcessRestore(pid, nullptr));
  EXAMPLE_CHECK(aclrtSnapShotProcessUnlock(pid, nullptr));

  std::vector<unsigned char> back(kBytes, 0);
  EXAMPLE_CHECK(aclrtMemcpyAsync(back.data(), kBytes, dev, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  const bool same = std::memcmp(back.data(), pattern.data(), kBytes) == 0;
  std::printf("Memory after restore: %s\n", same ? "identical" : "different");
  std::printf("Stage callbacks:");
  for (int s = 0; s < 6; ++s) std::printf(" %d", g_calls[s]);
  std::printf("\n");

  for (int s = 0; s < 6; ++s) {
    EXAMPLE_CHECK(aclrtSnapShotCallbackUnregister(
        static_cast<aclrtSnapShotStage>(s), CountStage));
  }
  EXAMPLE_CHECK(aclrtFree(dev));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
