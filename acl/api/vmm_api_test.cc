// Virtual memory management through the ACL C API (DESIGN.md §5.18):
// physical memory, reservations, mappings, access rights, address ranges,
// and what the snapshot brings back.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "aclsim/aclsim_kernel.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace {

constexpr size_t kTwoMiB = size_t{2} << 20;

aclrtPhysicalMemProp DeviceProp(uint32_t device = 0) {
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

// A kernel compiled into this program: copies the int32 at args[1] to the
// one at args[0], on a simulated core (so it meets the page tables).
void CopyWord(const aclsimKernelContext*, void* args) {
  auto** p = static_cast<int32_t**>(args);
  *p[0] = *p[1];
}

bool UnderThreadSanitizer() {
#if defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

constexpr uintptr_t kTiB = uintptr_t{1} << 40;
constexpr uintptr_t kGiB = uintptr_t{1} << 30;

class VmmApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    (void)aclrtSnapShotProcessUnlock(getpid(), nullptr);
    (void)aclrtDestroyStreamForce(stream_);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  // A 2 MiB physical allocation mapped at a fresh reservation of `size`.
  void MapOne(size_t reserve, void** va, aclrtDrvMemHandle* handle) {
    aclrtPhysicalMemProp prop = DeviceProp();
    ASSERT_ACL_OK(aclrtMallocPhysical(handle, kTwoMiB, &prop, 0));
    ASSERT_ACL_OK(aclrtReserveMemAddress(va, reserve, 0, nullptr, 0));
    ASSERT_ACL_OK(aclrtMapMem(*va, kTwoMiB, 0, *handle, 0));
  }

  // Runs CopyWord(dst, src) on stream_ and answers the synchronize.
  aclError KernelCopy(void* dst, const void* src) {
    aclrtFuncHandle f = nullptr;
    const aclError registered =
        aclsimRegisterKernel(reinterpret_cast<const void*>(&CopyWord),
                             "CopyWord", &CopyWord, nullptr, &f);
    if (registered != ACL_SUCCESS) return registered;
    const void* args[2] = {dst, src};
    const aclError launched = aclrtLaunchKernelWithHostArgs(
        f, 1, stream_, nullptr, args, sizeof args, nullptr, 0);
    if (launched != ACL_SUCCESS) return launched;
    return aclrtSynchronizeStream(stream_);
  }

  // The access the current device (0) has to the mapping at `va`.
  uint64_t OwnAccess(void* va) {
    aclrtMemLocation location{};
    location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    location.id = 0;
    uint64_t flags = 99;
    EXPECT_ACL_OK(aclrtMemGetAccess(va, &location, &flags));
    return flags;
  }
  void SetOwnAccess(void* va, size_t size, aclrtMemAccessFlags flags) {
    aclrtMemAccessDesc desc{};
    desc.flags = flags;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 0;
    ASSERT_ACL_OK(aclrtMemSetAccess(va, size, &desc, 1));
  }

  std::vector<uint8_t> Read(const void* src, size_t size) {
    std::vector<uint8_t> out(size);
    EXPECT_ACL_OK(
        aclrtMemcpy(out.data(), size, src, size, ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }

  aclrtStream stream_ = nullptr;
};

TEST_F(VmmApiTest, GranularityIsTwoMiBForEveryOption) {
  aclrtPhysicalMemProp prop = DeviceProp();
  size_t granularity = 0;
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(
      &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  EXPECT_EQ(granularity, kTwoMiB);
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(
      &prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &granularity));
  EXPECT_EQ(granularity, kTwoMiB);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(
                &prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &granularity),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(
                nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(
                &prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(VmmApiTest, MallocPhysicalValidatesItsProperties) {
  aclrtDrvMemHandle handle = nullptr;
  aclrtPhysicalMemProp prop = DeviceProp();
  EXPECT_EQ(aclrtMallocPhysical(nullptr, kTwoMiB, &prop, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&handle, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 1),
            ACL_ERROR_INVALID_PARAM);
  aclrtPhysicalMemProp bad = prop;
  bad.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &bad, 0),
            ACL_ERROR_INVALID_PARAM);
  bad = prop;
  bad.memAttr = ACL_DDR_MEM;
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &bad, 0),
            ACL_ERROR_INVALID_PARAM);
  bad = prop;
  bad.location.id = 9999;
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &bad, 0),
            ACL_ERROR_RT_INVALID_DEVICEID);
  bad = prop;
  bad.memAttr = ACL_HBM_MEM_HUGE1G;
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &bad, 0),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  bad = prop;
  bad.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  bad.memAttr = ACL_DDR_MEM_HUGE;
  EXPECT_EQ(aclrtMallocPhysical(&handle, kTwoMiB, &bad, 0),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(handle, nullptr);
  // A size that is not a multiple of the granularity is rounded up.
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, 4096, &prop, 0));
  aclrtPhysicalMemProp got{};
  ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(handle, &got));
  EXPECT_EQ(got.memAttr, prop.memAttr);
  EXPECT_EQ(got.location.id, 0u);
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemGetAllocationPropertiesFromHandle(handle, &got),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(VmmApiTest, PhysicalMemoryCountsAgainstTheDevice) {
  size_t free_before = 0, total = 0, free_after = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, 8 * kTwoMiB, &prop, 0));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_before - free_after, 8 * kTwoMiB);
  // A reservation is address space, not memory.
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 64 * kTwoMiB, 0, nullptr, 0));
  size_t free_reserved = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_reserved, &total));
  EXPECT_EQ(free_reserved, free_after);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  EXPECT_EQ(free_after, free_before);
}

TEST_F(VmmApiTest, ReserveHonoursAnExpectedAddressAndRefusesTakenOnes) {
  void* va = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(nullptr, kTwoMiB, 0, nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&va, 0, 0, nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&va, kTwoMiB, 4096, nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&va, kTwoMiB, 0, nullptr, 7),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 4 * kTwoMiB, 0, nullptr, 0));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(va) % kTwoMiB, 0u);
  void* again = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(&again, kTwoMiB, 0, va, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReserveMemAddress(&again, kTwoMiB, 0,
                                   static_cast<char*>(va) + 4096, 0),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);
  // The address is free again: ask for it (torch_npu's flag 1 too).
  ASSERT_ACL_OK(aclrtReserveMemAddress(&again, 2 * kTwoMiB, 0, va, 1));
  EXPECT_EQ(again, va);
  EXPECT_EQ(aclrtReleaseMemAddress(static_cast<char*>(again) + kTwoMiB),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(again));
}

TEST_F(VmmApiTest, OnePhysicalAllocationShowsTheSameBytesAtTwoAddresses) {
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&a, kTwoMiB, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&b, kTwoMiB, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(a, kTwoMiB, 0, handle, 0));
  ASSERT_ACL_OK(aclrtMapMem(b, kTwoMiB, 0, handle, 0));
  std::vector<uint8_t> data(kTwoMiB);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<uint8_t>(i * 7);
  ASSERT_ACL_OK(
      aclrtMemcpy(a, kTwoMiB, data.data(), kTwoMiB, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(b, kTwoMiB), data);
  // A memset through b, on a stream, is seen through a.
  ASSERT_ACL_OK(
      aclrtMemsetAsync(static_cast<char*>(b) + 100, 50, 0xEE, 50, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint8_t> seen = Read(a, kTwoMiB);
  for (size_t i = 100; i < 150; ++i) ASSERT_EQ(seen[i], 0xEE) << i;
  EXPECT_EQ(seen[99], data[99]);
  ASSERT_ACL_OK(aclrtUnmapMem(a));
  ASSERT_ACL_OK(aclrtUnmapMem(b));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(a));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(b));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

TEST_F(VmmApiTest, CopiesSpanAdjacentMappingsButNotGaps) {
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle h1 = nullptr;
  aclrtDrvMemHandle h2 = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&h1, kTwoMiB, &prop, 0));
  ASSERT_ACL_OK(aclrtMallocPhysical(&h2, kTwoMiB, &prop, 0));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 3 * kTwoMiB, 0, nullptr, 0));
  char* base = static_cast<char*>(va);
  ASSERT_ACL_OK(aclrtMapMem(base, kTwoMiB, 0, h1, 0));
  ASSERT_ACL_OK(aclrtMapMem(base + kTwoMiB, kTwoMiB, 0, h2, 0));
  std::vector<uint8_t> data(kTwoMiB, 0x5A);
  // Across the boundary of the two physical allocations.
  ASSERT_ACL_OK(aclrtMemcpyAsync(base + kTwoMiB / 2, kTwoMiB, data.data(),
                                 kTwoMiB, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(base + kTwoMiB / 2, kTwoMiB), data);
  void* range_base = nullptr;
  size_t range_size = 0;
  ASSERT_ACL_OK(
      aclrtMemGetAddressRange(base + kTwoMiB + 5, &range_base, &range_size));
  EXPECT_EQ(range_base, base + kTwoMiB);
  EXPECT_EQ(range_size, kTwoMiB);
  // The third granule is reserved but unmapped: no copy may touch it.
  EXPECT_NE(aclrtMemcpy(base + kTwoMiB, 2 * kTwoMiB, data.data(), kTwoMiB + 1,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemGetAddressRange(base + 2 * kTwoMiB, &range_base, &range_size),
      ACL_ERROR_RT_PARAM_INVALID);
  // Device-to-device between mapped memory and plain memory.
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&plain, kTwoMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(plain, kTwoMiB, base + kTwoMiB / 2, kTwoMiB,
                            ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(plain, kTwoMiB), data);
  ASSERT_ACL_OK(aclrtMemGetAddressRange(static_cast<char*>(plain) + 9,
                                        &range_base, &range_size));
  EXPECT_EQ(range_base, plain);
  EXPECT_EQ(range_size, kTwoMiB);
  int host = 0;
  EXPECT_EQ(aclrtMemGetAddressRange(&host, &range_base, &range_size),
            ACL_ERROR_RT_PARAM_INVALID);
  // Host blocks from aclrtMallocHost and aclrtMallocHostWithCfg answer
  // with the block (11-04, aclrtMemGetAddressRange, the scenario table).
  void* pinned = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&pinned, 1000));
  ASSERT_ACL_OK(aclrtMemGetAddressRange(static_cast<char*>(pinned) + 999,
                                        &range_base, &range_size));
  EXPECT_EQ(range_base, pinned);
  EXPECT_EQ(range_size, 1000u);
  void* configured = nullptr;
  ASSERT_ACL_OK(aclrtMallocHostWithCfg(&configured, 3 * kTwoMiB, nullptr));
  ASSERT_ACL_OK(aclrtMemGetAddressRange(configured, &range_base, &range_size));
  EXPECT_EQ(range_base, configured);
  EXPECT_EQ(range_size, 3 * kTwoMiB);
  ASSERT_ACL_OK(aclrtFreeHost(configured));
  ASSERT_ACL_OK(aclrtFreeHost(pinned));
  EXPECT_EQ(aclrtMemGetAddressRange(pinned, &range_base, &range_size),
            ACL_ERROR_RT_PARAM_INVALID);
  // Reserved addresses are RSVD memory, mapped or not; plain ones DEV.
  void* reserved[] = {base, base + 2 * kTwoMiB};
  uint32_t matches = 9;
  ASSERT_ACL_OK(
      aclrtCheckMemType(reserved, 2, ACL_RT_MEM_TYPE_RSVD, &matches, 0));
  EXPECT_EQ(matches, 1u);
  ASSERT_ACL_OK(
      aclrtCheckMemType(reserved, 2, ACL_RT_MEM_TYPE_DEV, &matches, 0));
  EXPECT_EQ(matches, 0u);
  aclrtPtrAttributes attributes{};
  ASSERT_ACL_OK(aclrtPointerGetAttributes(base + 8, &attributes));
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attributes.location.id, 0u);
  ASSERT_ACL_OK(aclrtFree(plain));
  ASSERT_ACL_OK(aclrtUnmapMem(base));
  ASSERT_ACL_OK(aclrtUnmapMem(base + kTwoMiB));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(h1));
  ASSERT_ACL_OK(aclrtFreePhysical(h2));
}

TEST_F(VmmApiTest, MapRefusesBadArguments) {
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, 2 * kTwoMiB, &prop, 0));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * kTwoMiB, 0, nullptr, 0));
  char* base = static_cast<char*>(va);
  EXPECT_EQ(aclrtMapMem(nullptr, kTwoMiB, 0, handle, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMapMem(base, kTwoMiB, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMapMem(base, kTwoMiB, 0, handle, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMapMem(base, 4096, 0, handle, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMapMem(base, kTwoMiB, 4096, handle, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMapMem(base, kTwoMiB, 2 * kTwoMiB, handle, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMapMem(base, 4 * kTwoMiB, 0, handle, 0),
            ACL_ERROR_INVALID_PARAM);
  int not_device = 0;
  EXPECT_EQ(aclrtMapMem(&not_device, kTwoMiB, 0, handle, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMapMem(base, kTwoMiB, 0, &not_device, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  // The second half of the allocation at the second granule.
  ASSERT_ACL_OK(aclrtMapMem(base + kTwoMiB, kTwoMiB, kTwoMiB, handle, 0));
  EXPECT_EQ(aclrtMapMem(base + kTwoMiB, kTwoMiB, 0, handle, 0),
            ACL_ERROR_RT_PARAM_INVALID);  // already mapped there
  EXPECT_EQ(aclrtUnmapMem(base), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtUnmapMem(base + kTwoMiB));
  EXPECT_EQ(aclrtUnmapMem(base + kTwoMiB), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

TEST_F(VmmApiTest, FreeWhileMappedFreesAtTheLastUnmap) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  MapOne(kTwoMiB, &va, &handle);
  size_t free_mapped = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_mapped, &total));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  // Still mapped: still readable, the memory still held.
  std::vector<uint8_t> data(64, 3);
  ASSERT_ACL_OK(
      aclrtMemcpy(va, 64, data.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(va, 64), data);
  size_t free_now = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total));
  EXPECT_EQ(free_now, free_mapped);
  // The handle itself is gone for new work.
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total));
  EXPECT_EQ(free_now, free_mapped + kTwoMiB);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(VmmApiTest, RetainReturnsTheMappedHandleWithAReference) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  MapOne(kTwoMiB, &va, &handle);
  aclrtDrvMemHandle retained = nullptr;
  ASSERT_ACL_OK(
      aclrtMemRetainAllocationHandle(static_cast<char*>(va) + 77, &retained));
  EXPECT_EQ(retained, handle);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  // Two references: the first free keeps it, the second frees it.
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  aclrtPhysicalMemProp prop{};
  ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(handle, &prop));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  EXPECT_EQ(aclrtMemGetAllocationPropertiesFromHandle(handle, &prop),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemRetainAllocationHandle(va, &retained),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemRetainAllocationHandle(va, nullptr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(VmmApiTest, AccessRightsAreKeptPerDevice) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  MapOne(kTwoMiB, &va, &handle);
  aclrtMemLocation location{};
  location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  location.id = 0;
  uint64_t flags = 99;
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &location, &flags));
  EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  aclrtMemAccessDesc desc{};
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  desc.location = location;
  ASSERT_ACL_OK(aclrtMemSetAccess(va, kTwoMiB, &desc, 1));
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &location, &flags));
  EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
  location.id = 1;
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &location, &flags));
  EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_NONE);
  // Bad descriptors change nothing.
  desc.flags = static_cast<aclrtMemAccessFlags>(2);
  EXPECT_EQ(aclrtMemSetAccess(va, kTwoMiB, &desc, 1), ACL_ERROR_INVALID_PARAM);
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_NONE;
  EXPECT_EQ(aclrtMemSetAccess(va, kTwoMiB, &desc, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemSetAccess(va, kTwoMiB / 2, &desc, 1),
            ACL_ERROR_RT_PARAM_INVALID);
  desc.location.id = 4096;
  EXPECT_EQ(aclrtMemSetAccess(va, kTwoMiB, &desc, 1),
            ACL_ERROR_RT_INVALID_DEVICEID);
  location.id = 0;
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &location, &flags));
  EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  EXPECT_EQ(aclrtMemGetAccess(va, &location, &flags),
            ACL_ERROR_RT_PARAM_INVALID);
  // Mapped without access, then granted.
  ASSERT_ACL_OK(aclrtMemMapNoAccess(va, kTwoMiB, 0, handle, 0));
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &location, &flags));
  EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_NONE);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

// 11-04: memory mapped with aclrtMemMapNoAccess is not accessible until
// aclrtMemSetAccess grants the device access; aclrtMemGetAccess reports
// what the device enforces. Enforced for copies, fills and kernels (the
// simulator's page tables); a refused copy changes nothing. aclrtMapMem
// maps with access (the aclrtMemMapNoAccess page: only that one leaves the
// range without accessible page tables), as torch_npu relies on.
TEST_F(VmmApiTest, MappedMemoryIsAccessibleOnlyAsItsAccessSays) {
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, kTwoMiB, 0, nullptr, 0));
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&plain, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  const int32_t seven = 7;
  ASSERT_ACL_OK(aclrtMemcpy(plain, 4, &seven, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  auto* word = static_cast<int32_t*>(va);

  ASSERT_ACL_OK(aclrtMemMapNoAccess(va, kTwoMiB, 0, handle, 0));
  EXPECT_EQ(OwnAccess(va), ACL_RT_MEM_ACCESS_FLAGS_NONE);
  int32_t got = -1;
  EXPECT_EQ(aclrtMemcpy(va, 4, &seven, 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(&got, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemset(va, 4, 1, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(va, 4, plain, 4, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(va, 4, &seven, 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(KernelCopy(plain, va), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(got, -1);

  SetOwnAccess(va, kTwoMiB, ACL_RT_MEM_ACCESS_FLAGS_READ);
  EXPECT_EQ(OwnAccess(va), ACL_RT_MEM_ACCESS_FLAGS_READ);
  ASSERT_ACL_OK(aclrtMemcpy(&got, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, 0) << "nothing reached the memory without access";
  EXPECT_EQ(aclrtMemcpy(va, 4, &seven, 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(KernelCopy(word, plain), ACL_ERROR_RT_AICORE_EXCEPTION);
  ASSERT_ACL_OK(KernelCopy(static_cast<char*>(plain) + 4, word));

  SetOwnAccess(va, kTwoMiB, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  EXPECT_EQ(OwnAccess(va), ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  ASSERT_ACL_OK(KernelCopy(word, plain));
  ASSERT_ACL_OK(aclrtMemcpy(&got, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, 7);
  ASSERT_ACL_OK(aclrtMemset(va, 4, 0, 4));

  // A refused aclrtMemSetAccess changes nothing, the enforcement included.
  aclrtMemAccessDesc bad{};
  bad.flags = ACL_RT_MEM_ACCESS_FLAGS_NONE;
  bad.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  bad.location.id = 0;
  EXPECT_EQ(aclrtMemSetAccess(va, kTwoMiB / 2, &bad, 1),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(OwnAccess(va), ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  ASSERT_ACL_OK(aclrtMemcpy(va, 4, &seven, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtUnmapMem(va));

  // aclrtMapMem: accessible at once.
  ASSERT_ACL_OK(aclrtMapMem(va, kTwoMiB, 0, handle, 0));
  EXPECT_EQ(OwnAccess(va), ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  ASSERT_ACL_OK(aclrtMemcpy(&got, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, 7);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFree(plain));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

// The access a program set survives a snapshot: Lock, Backup, memory loss,
// Restore, Unlock put the mapping back with the same protection.
TEST_F(VmmApiTest, AccessProtectionSurvivesASnapshot) {
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, 2 * kTwoMiB, &prop, 0));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * kTwoMiB, 0, nullptr, 0));
  void* hidden = static_cast<char*>(va) + kTwoMiB;
  ASSERT_ACL_OK(aclrtMapMem(va, kTwoMiB, 0, handle, 0));
  ASSERT_ACL_OK(aclrtMemMapNoAccess(hidden, kTwoMiB, kTwoMiB, handle, 0));
  const int32_t nine = 9;
  ASSERT_ACL_OK(aclrtMemcpy(va, 4, &nine, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  SetOwnAccess(va, kTwoMiB, ACL_RT_MEM_ACCESS_FLAGS_READ);

  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));

  EXPECT_EQ(OwnAccess(va), ACL_RT_MEM_ACCESS_FLAGS_READ);
  EXPECT_EQ(OwnAccess(hidden), ACL_RT_MEM_ACCESS_FLAGS_NONE);
  int32_t got = 0;
  ASSERT_ACL_OK(aclrtMemcpy(&got, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, 9);
  EXPECT_EQ(aclrtMemcpy(va, 4, &got, 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(&got, 4, hidden, 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&plain, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(KernelCopy(va, plain), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(KernelCopy(plain, hidden), ACL_ERROR_RT_AICORE_EXCEPTION);
  ASSERT_ACL_OK(aclrtFree(plain));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtUnmapMem(hidden));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

// 11-04, aclrtReserveMemAddress `expectPtr`: an address in 16 TiB to 24 TiB
// is honoured, aligned to 1 GiB when the size is above 1 GiB, else to the
// size's power of two; a misaligned one, one running past 24 TiB or one
// taken (by this device or another) is refused with 107000 and reserves
// nothing. The placed reservation maps, copies and survives a snapshot.
TEST_F(VmmApiTest, ReserveHonoursAnExpectedAddressInTheDocumentedWindow) {
  if (UnderThreadSanitizer()) {
    GTEST_SKIP() << "ThreadSanitizer's shadow memory occupies 16-24 TiB";
  }
  void* const at = reinterpret_cast<void*>(20 * kTiB);
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, kTwoMiB, 0, at, 0));
  EXPECT_EQ(va, at);
  void* again = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(aclrtReserveMemAddress(&again, kTwoMiB, 0, at, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(again, reinterpret_cast<void*>(0x1));
  // Misaligned for its size: 4 MiB needs 4 MiB, 3 GiB needs 1 GiB.
  void* const off = reinterpret_cast<void*>(21 * kTiB + kTwoMiB);
  EXPECT_EQ(aclrtReserveMemAddress(&again, 2 * kTwoMiB, 0, off, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  void* const half_gib = reinterpret_cast<void*>(21 * kTiB + kGiB / 2);
  EXPECT_EQ(aclrtReserveMemAddress(&again, 3 * kGiB, 0, half_gib, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  void* const last_gib = reinterpret_cast<void*>(24 * kTiB - kGiB);
  EXPECT_EQ(aclrtReserveMemAddress(&again, 2 * kGiB, 0, last_gib, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(again, reinterpret_cast<void*>(0x1));
  void* big = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&big, 3 * kGiB, 0,
                                       reinterpret_cast<void*>(22 * kTiB), 0));
  EXPECT_EQ(big, reinterpret_cast<void*>(22 * kTiB));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(big));
  // Another device cannot take it either.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  EXPECT_EQ(aclrtReserveMemAddress(&again, kTwoMiB, 0, at, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  ASSERT_ACL_OK(aclrtSetDevice(0));

  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, kTwoMiB, 0, handle, 0));
  SetOwnAccess(va, kTwoMiB, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  std::vector<uint8_t> data(4096);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  ASSERT_ACL_OK(aclrtMemcpy(va, data.size(), data.data(), data.size(),
                            ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_EQ(Read(va, data.size()), data);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtMemGetAddressRange(va, &base, &size));
  EXPECT_EQ(base, at);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  // Free again.
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, kTwoMiB, 0, at, 0));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(VmmApiTest, HostFunctionsWorkOnMappedMemory) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  MapOne(kTwoMiB, &va, &handle);
  struct Job {
    int* where;
    std::atomic<int> runs{0};
  } job{static_cast<int*>(va)};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream_,
      [](void* arg) {
        auto* j = static_cast<Job*>(arg);
        *j->where = 4242;
        j->runs.fetch_add(1);
      },
      &job));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(job.runs.load(), 1);
  int seen = 0;
  ASSERT_ACL_OK(aclrtMemcpy(&seen, sizeof seen, va, sizeof seen,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(seen, 4242);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

// Resource-modifying calls wait while the process is locked, and run once
// it is unlocked.
TEST_F(VmmApiTest, VmmCallsWaitWhileLocked) {
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  std::atomic<bool> done{false};
  aclError result = ACL_SUCCESS;
  void* va = nullptr;
  std::thread caller([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    result = aclrtReserveMemAddress(&va, kTwoMiB, 0, nullptr, 0);
    done.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(done.load());
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  caller.join();
  EXPECT_EQ(result, ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

// The snapshot brings back every reservation at its address, every handle,
// every mapping (with its access rights) and the bytes, saved once for a
// physical allocation mapped twice.
TEST_F(VmmApiTest, SnapshotRestoresReservationsMappingsAndContents) {
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle shared = nullptr;
  aclrtDrvMemHandle unmapped = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&shared, 2 * kTwoMiB, &prop, 0));
  ASSERT_ACL_OK(aclrtMallocPhysical(&unmapped, kTwoMiB, &prop, 0));
  void* a = nullptr;
  void* b = nullptr;
  void* empty = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&a, 2 * kTwoMiB, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&b, kTwoMiB, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&empty, 4 * kTwoMiB, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(a, 2 * kTwoMiB, 0, shared, 0));
  ASSERT_ACL_OK(aclrtMapMem(b, kTwoMiB, kTwoMiB, shared, 0));
  aclrtMemAccessDesc desc{};
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = 1;
  ASSERT_ACL_OK(aclrtMemSetAccess(b, kTwoMiB, &desc, 1));
  std::vector<uint8_t> data(2 * kTwoMiB);
  for (size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<uint8_t>(i % 251);
  }
  ASSERT_ACL_OK(aclrtMemcpy(a, data.size(), data.data(), data.size(),
                            ACL_MEMCPY_HOST_TO_DEVICE));

  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));

  EXPECT_EQ(Read(a, data.size()), data);
  EXPECT_EQ(Read(b, kTwoMiB),
            std::vector<uint8_t>(data.begin() + kTwoMiB, data.end()));
  // Still one allocation behind both addresses.
  const uint8_t mark = 0x77;
  ASSERT_ACL_OK(aclrtMemcpy(b, 1, &mark, 1, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(static_cast<char*>(a) + kTwoMiB, 1)[0], mark);
  aclrtMemLocation location = desc.location;
  uint64_t flags = 0;
  ASSERT_ACL_OK(aclrtMemGetAccess(b, &location, &flags));
  EXPECT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
  aclrtDrvMemHandle retained = nullptr;
  ASSERT_ACL_OK(aclrtMemRetainAllocationHandle(a, &retained));
  EXPECT_EQ(retained, shared);
  ASSERT_ACL_OK(aclrtFreePhysical(retained));
  // The empty reservation is still ours, and still unmapped.
  void* taken = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(&taken, kTwoMiB, 0, empty, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemGetAddressRange(empty, &taken, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  // The unmapped handle kept its properties and can be mapped now.
  ASSERT_ACL_OK(aclrtMapMem(empty, kTwoMiB, 0, unmapped, 0));
  EXPECT_EQ(Read(empty, 16), std::vector<uint8_t>(16, 0));

  ASSERT_ACL_OK(aclrtUnmapMem(empty));
  ASSERT_ACL_OK(aclrtUnmapMem(a));
  ASSERT_ACL_OK(aclrtUnmapMem(b));
  for (void* va : {a, b, empty}) ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(shared));
  ASSERT_ACL_OK(aclrtFreePhysical(unmapped));
}

// vLLM's sleep mode: unmap and free the physical memory, keep the
// reservation; on wake, map new physical memory at the same address. A
// snapshot taken while asleep keeps the reservation and nothing else.
TEST_F(VmmApiTest, SleepAndWakeAroundASnapshot) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  MapOne(kTwoMiB, &va, &handle);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));

  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));

  aclrtPhysicalMemProp prop = DeviceProp();
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, kTwoMiB, 0, handle, 0));
  EXPECT_EQ(Read(va, 8), std::vector<uint8_t>(8, 0));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
}

TEST_F(VmmApiTest, ResetDropsEverythingOfTheDevice) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = nullptr;
  MapOne(kTwoMiB, &va, &handle);
  ASSERT_ACL_OK(aclrtDestroyStreamForce(stream_));
  stream_ = nullptr;
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID);
  // The address is free again.
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&again, kTwoMiB, 0, va, 0));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(again));
  ASSERT_ACL_OK(aclrtCreateStream(&stream_));
}

TEST_F(VmmApiTest, P2PMapValidatesPeerMemory) {
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&plain, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(aclrtMemP2PMap(plain, 4096, 1, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ASSERT_ACL_OK(aclrtMemP2PMap(plain, 4096, 1, 0));
  EXPECT_EQ(aclrtMemP2PMap(plain, 4096, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemP2PMap(plain, 8192, 1, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemP2PMap(plain, 4096, 1, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemP2PMap(nullptr, 4096, 1, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemP2PMap(plain, 4096, 99999, 0),
            ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  ASSERT_ACL_OK(aclrtFree(plain));
}

TEST_F(VmmApiTest, LinkSelectionIsNotSupportedOnThisChip) {
  void* va = nullptr;
  EXPECT_EQ(
      aclrtReserveMemAddressNoUCMemory(&va, size_t{1} << 30, 0, nullptr, 0),
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtMemMapSetLink(nullptr, ACL_RT_MEM_ACCESS_LINK_HCCS),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
