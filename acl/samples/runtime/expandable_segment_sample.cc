// Sample: a torch_npu-style expandable segment built with virtual memory
// management.
//
// The allocator reserves a large range of device addresses once, then grows
// the segment by mapping 2 MiB physical handles one after another at its
// end, while a stream keeps working on it: each step memsets the new handle,
// copies a host pattern across the boundary between the previous handle and
// the new one, and launches a host function that checks those bytes (and the
// previous boundary) in stream order. aclrtGetMemInfo follows the mapped
// size. One copy then reads the whole segment back across every handle
// boundary. The segment shrinks from its end: the stream keeps checking the
// handles that stay while the top one is unmapped and freed.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr size_t kGranule = size_t{2} << 20;
constexpr size_t kReserved = 64 * kGranule;  // 128 MiB of addresses
constexpr size_t kHandles = 12;              // grown to 24 MiB

// The value the segment should hold at byte `i` once grown to `handles`:
// handle 0 starts with its memset value (1), each boundary k (k >= 1) holds
// the pattern copied across it ([k - 1/2, k + 1/2) granules), and the last
// handle ends with its memset value.
uint8_t Pattern(size_t boundary, size_t i) {
  return static_cast<uint8_t>((i * 131 + boundary * 17) % 251 + 1);
}
uint8_t Expected(size_t i, size_t handles) {
  const size_t half = kGranule / 2;
  if (i < half) return 1;
  const size_t boundary = (i + half) / kGranule;
  if (boundary < handles)
    return Pattern(boundary, i - (boundary * kGranule - half));
  return static_cast<uint8_t>(handles);
}

// A host function's view of the segment: it reads the device memory
// directly (simulated device memory is host-addressable, like the mapped
// segment).
struct CheckArgs {
  const uint8_t* segment;
  size_t from;  // bytes [from, to) of the segment
  size_t to;
  size_t handles;  // as grown when the check was queued
  std::atomic<int>* failures;
};

void CheckBytes(void* raw) {
  auto* args = static_cast<CheckArgs*>(raw);
  for (size_t i = args->from; i < args->to; ++i) {
    if (args->segment[i] != Expected(i, args->handles)) {
      args->failures->fetch_add(1);
      return;
    }
  }
}

size_t FreeBytes() {
  size_t free_bytes = 0;
  size_t total = 0;
  if (aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total) != ACL_SUCCESS) {
    return 0;
  }
  return free_bytes;
}

int Grow(aclrtStream stream, uint8_t* segment,
         std::vector<aclrtDrvMemHandle>& handles,
         std::vector<std::vector<uint8_t>>& patterns,
         std::vector<CheckArgs>& checks, std::atomic<int>& failures,
         size_t free_before) {
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  const size_t half = kGranule / 2;
  for (size_t k = 0; k < kHandles; ++k) {
    aclrtDrvMemHandle handle = nullptr;
    CHECK_ERROR(aclrtMallocPhysical(&handle, kGranule, &prop, 0));
    CHECK_ERROR(aclrtMapMem(segment + k * kGranule, kGranule, 0, handle, 0));
    handles.push_back(handle);
    if (FreeBytes() != free_before - (k + 1) * kGranule) {
      ERROR_LOG("aclrtGetMemInfo: %zu bytes free with %zu handles mapped",
                FreeBytes(), k + 1);
      return -1;
    }
    // The stream works on the new handle while earlier work may still run.
    CHECK_ERROR(aclrtMemsetAsync(segment + k * kGranule, kGranule,
                                 static_cast<int32_t>(k + 1), kGranule,
                                 stream));
    if (k == 0) continue;
    std::vector<uint8_t>& pattern = patterns[k];
    pattern.resize(kGranule);
    for (size_t i = 0; i < kGranule; ++i) pattern[i] = Pattern(k, i);
    CHECK_ERROR(aclrtMemcpyAsync(segment + k * kGranule - half, kGranule,
                                 pattern.data(), kGranule,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
    // Checks this boundary and the one before, across two handles each.
    checks[k] = CheckArgs{segment, (k - 1) * kGranule, (k + 1) * kGranule,
                          k + 1, &failures};
    CHECK_ERROR(aclrtLaunchHostFunc(stream, CheckBytes, &checks[k]));
  }
  return 0;
}

int Shrink(aclrtStream stream, uint8_t* segment,
           std::vector<aclrtDrvMemHandle>& handles,
           std::vector<CheckArgs>& checks, std::atomic<int>& failures,
           size_t free_before) {
  // Nothing queued touches the top handle: the stream checks the ones that
  // stay while it goes.
  while (handles.size() > 1) {
    const size_t top = handles.size() - 1;
    checks[top] = CheckArgs{segment, 0, top * kGranule - kGranule / 2, kHandles,
                            &failures};
    CHECK_ERROR(aclrtLaunchHostFunc(stream, CheckBytes, &checks[top]));
    CHECK_ERROR(aclrtUnmapMem(segment + top * kGranule));
    CHECK_ERROR(aclrtFreePhysical(handles[top]));
    handles.pop_back();
    if (FreeBytes() != free_before - handles.size() * kGranule) {
      ERROR_LOG("aclrtGetMemInfo: %zu bytes free with %zu handles mapped",
                FreeBytes(), handles.size());
      return -1;
    }
    CHECK_ERROR(aclrtSynchronizeStream(stream));
  }
  CHECK_ERROR(aclrtUnmapMem(segment));
  CHECK_ERROR(aclrtFreePhysical(handles[0]));
  handles.clear();
  return 0;
}

int RunSegment(aclrtStream stream) {
  const size_t free_before = FreeBytes();
  void* reserved = nullptr;
  CHECK_ERROR(aclrtReserveMemAddress(&reserved, kReserved, 0, nullptr, 0));
  auto* segment = static_cast<uint8_t*>(reserved);
  if (FreeBytes() != free_before) {
    ERROR_LOG("a reservation should cost no memory");
    return -1;
  }
  INFO_LOG("reserved %zu MiB of device addresses at %p", kReserved >> 20,
           reserved);

  std::vector<aclrtDrvMemHandle> handles;
  std::vector<std::vector<uint8_t>> patterns(kHandles);
  std::vector<CheckArgs> checks(kHandles);
  std::atomic<int> failures{0};
  const int grown =
      Grow(stream, segment, handles, patterns, checks, failures, free_before);
  // Synchronise even after a failure: queued work uses the host buffers.
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  if (grown != 0) return -1;
  INFO_LOG(
      "grew to %zu handles (%zu MiB) while the stream worked; %d "
      "failed check(s)",
      handles.size(), handles.size() * kGranule >> 20, failures.load());

  // One copy across every handle boundary.
  std::vector<uint8_t> whole(kHandles * kGranule);
  CHECK_ERROR(aclrtMemcpy(whole.data(), whole.size(), segment, whole.size(),
                          ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole[i] != Expected(i, kHandles)) {
      ERROR_LOG("segment byte %zu is %u, expected %u", i, whole[i],
                Expected(i, kHandles));
      return -1;
    }
  }
  INFO_LOG(
      "one %zu MiB copy read the whole segment back across %zu handle "
      "boundaries",
      whole.size() >> 20, kHandles - 1);

  const int shrunk =
      Shrink(stream, segment, handles, checks, failures, free_before);
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  if (shrunk != 0) return -1;
  CHECK_ERROR(aclrtReleaseMemAddress(reserved));
  if (FreeBytes() != free_before) {
    ERROR_LOG("memory not returned: %zu free, %zu before", FreeBytes(),
              free_before);
    return -1;
  }
  if (failures.load() != 0) {
    ERROR_LOG("%d stream-ordered check(s) saw wrong bytes", failures.load());
    return -1;
  }
  INFO_LOG("shrank from the end to nothing; every stream-ordered check passed");
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const int result = RunSegment(stream);
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
