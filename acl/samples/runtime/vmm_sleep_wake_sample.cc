// Sample: vLLM's "sleep mode" (its CuMemAllocator, camem on Ascend) around
// a process snapshot.
//
// Model weights live in physical memory mapped into a reservation. A
// snapshot taken while awake brings the mapped bytes back after the device
// lost its memory. To sleep, the weights are copied to the host, unmapped
// and their physical memory freed, keeping only the reservation (so every
// pointer into the weights stays valid). The process is then snapshotted
// asleep: Lock, Backup, the device loses its memory, Restore, Unlock; the
// reservation is still the process's. To wake, new physical memory is
// mapped at the same addresses and the weights copied back.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"
#include "aclsim/aclsim.h"

namespace {

constexpr size_t kGranule = size_t{2} << 20;
constexpr size_t kHandleSize = 2 * kGranule;  // 4 MiB per handle
constexpr size_t kHandles = 3;
constexpr size_t kWeights = kHandles * kHandleSize;

aclrtPhysicalMemProp DeviceProp() {
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  return prop;
}

size_t FreeBytes() {
  size_t free_bytes = 0;
  size_t total = 0;
  if (aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total) != ACL_SUCCESS) {
    return 0;
  }
  return free_bytes;
}

// New physical memory mapped over the whole reservation.
int MapWeights(uint8_t* weights, std::vector<aclrtDrvMemHandle>& handles) {
  aclrtPhysicalMemProp prop = DeviceProp();
  for (size_t h = 0; h < kHandles; ++h) {
    aclrtDrvMemHandle handle = nullptr;
    CHECK_ERROR(aclrtMallocPhysical(&handle, kHandleSize, &prop, 0));
    CHECK_ERROR(
        aclrtMapMem(weights + h * kHandleSize, kHandleSize, 0, handle, 0));
    handles.push_back(handle);
  }
  return 0;
}

int UnmapWeights(uint8_t* weights, std::vector<aclrtDrvMemHandle>& handles) {
  for (size_t h = 0; h < handles.size(); ++h) {
    CHECK_ERROR(aclrtUnmapMem(weights + h * kHandleSize));
    CHECK_ERROR(aclrtFreePhysical(handles[h]));
  }
  handles.clear();
  return 0;
}

// Lock, Backup, memory loss, Restore, Unlock.
int SnapshotAndLoseMemory() {
  const int pid = static_cast<int>(getpid());
  CHECK_ERROR(aclrtSnapShotProcessLock(pid, nullptr));
  CHECK_ERROR(aclrtSnapShotProcessBackup(pid, nullptr));
  CHECK_ERROR(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  CHECK_ERROR(aclrtSnapShotProcessRestore(pid, nullptr));
  CHECK_ERROR(aclrtSnapShotProcessUnlock(pid, nullptr));
  return 0;
}

// Whether the device holds `want` at `weights` (one copy across handles).
int Verify(const uint8_t* weights, const std::vector<uint8_t>& want,
           const char* when) {
  std::vector<uint8_t> read(want.size());
  CHECK_ERROR(aclrtMemcpy(read.data(), read.size(), weights, read.size(),
                          ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < want.size(); ++i) {
    if (read[i] != want[i]) {
      ERROR_LOG("%s: weight byte %zu is %u, expected %u", when, i, read[i],
                want[i]);
      return -1;
    }
  }
  INFO_LOG("%s: all %zu weight bytes as written", when, want.size());
  return 0;
}

int RunSleepWake() {
  const size_t free_start = FreeBytes();
  void* reserved = nullptr;
  CHECK_ERROR(aclrtReserveMemAddress(&reserved, kWeights, 0, nullptr, 0));
  auto* weights = static_cast<uint8_t*>(reserved);
  std::vector<aclrtDrvMemHandle> handles;
  if (MapWeights(weights, handles) != 0) return -1;
  std::vector<uint8_t> pattern(kWeights);
  for (size_t i = 0; i < kWeights; ++i) {
    pattern[i] = static_cast<uint8_t>((i * 2654435761u) >> 11);
  }
  CHECK_ERROR(aclrtMemcpy(weights, kWeights, pattern.data(), kWeights,
                          ACL_MEMCPY_HOST_TO_DEVICE));
  INFO_LOG("weights mapped: %zu handles of %zu MiB at %p", kHandles,
           kHandleSize >> 20, reserved);

  // Awake: the snapshot brings the mapped bytes back.
  if (SnapshotAndLoseMemory() != 0) return -1;
  if (Verify(weights, pattern, "awake snapshot restored") != 0) return -1;

  // Sleep: offload, unmap, free; the reservation stays.
  std::vector<uint8_t> offloaded(kWeights);
  CHECK_ERROR(aclrtMemcpy(offloaded.data(), kWeights, weights, kWeights,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  if (UnmapWeights(weights, handles) != 0) return -1;
  if (FreeBytes() != free_start) {
    ERROR_LOG("asleep, %zu bytes free, %zu at the start", FreeBytes(),
              free_start);
    return -1;
  }
  INFO_LOG("asleep: weights offloaded to the host, device memory freed");

  if (SnapshotAndLoseMemory() != 0) return -1;
  // The reservation is still ours: nobody else can reserve its addresses.
  void* taken = nullptr;
  if (aclrtReserveMemAddress(&taken, kGranule, 0, reserved, 0) == ACL_SUCCESS) {
    ERROR_LOG("the reservation was lost across the snapshot");
    return -1;
  }
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  INFO_LOG("snapshot taken asleep: the reservation survived");

  // Wake: new physical memory at the same addresses, zero until refilled.
  if (MapWeights(weights, handles) != 0) return -1;
  if (Verify(weights, std::vector<uint8_t>(kWeights, 0), "woken, unfilled") !=
      0) {
    return -1;
  }
  CHECK_ERROR(aclrtMemcpy(weights, kWeights, offloaded.data(), kWeights,
                          ACL_MEMCPY_HOST_TO_DEVICE));
  if (Verify(weights, pattern, "woken") != 0) return -1;

  if (UnmapWeights(weights, handles) != 0) return -1;
  CHECK_ERROR(aclrtReleaseMemAddress(reserved));
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  const int result = RunSleepWake();
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
