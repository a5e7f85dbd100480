// The runtime on a small simulator: 2 devices of 16 MiB each
// (ACLSIM_DEVICE_COUNT=2, ACLSIM_DEVICE_MEMORY_MB=16, set by the BUILD rule;
// the runtime reads them once per process). Covers device-count limits and
// memory exhaustion, where a failed allocation must change nothing.
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kDeviceBytes = 16 * kMiB;

class SmallDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  void MemInfo(size_t* free_bytes, size_t* total) {
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, free_bytes, total));
  }
};

TEST_F(SmallDeviceTest, TheEnvironmentSetsTheDeviceCount) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 2u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(2));
  int32_t can = -1;
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(can, 1);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceCanAccessPeer(&can, 0, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceEnablePeerAccess(2, 0));
  aclrtContext context = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtCreateContext(&context, 2));
}

TEST_F(SmallDeviceTest, TheEnvironmentSetsTheDeviceMemory) {
  size_t free_bytes = 0;
  size_t total = 0;
  MemInfo(&free_bytes, &total);
  EXPECT_EQ(total, kDeviceBytes);
  EXPECT_EQ(free_bytes, kDeviceBytes);
}

TEST_F(SmallDeviceTest, TooLargeAnAllocationFailsAndChangesNothing) {
  void* kept = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&kept, 4 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free_before = 0;
  size_t total = 0;
  MemInfo(&free_before, &total);

  void* ptr = reinterpret_cast<void*>(0x5678);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&ptr, kDeviceBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(ptr, reinterpret_cast<void*>(0x5678));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&ptr, SIZE_MAX / 2, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(ptr, reinterpret_cast<void*>(0x5678));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  size_t free_after = 0;
  MemInfo(&free_after, &total);
  EXPECT_EQ(free_after, free_before);
  // What remains can still be allocated.
  ASSERT_ACL_OK(aclrtMalloc(&ptr, free_after, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(ptr));
  ASSERT_ACL_OK(aclrtFree(kept));
}

TEST_F(SmallDeviceTest, ExhaustionAndRecovery) {
  std::vector<void*> blocks;
  aclError result = ACL_SUCCESS;
  // 16 MiB holds at most 16 blocks of 1 MiB; stop at the first failure.
  for (int i = 0; i < 32; ++i) {
    void* ptr = nullptr;
    result = aclrtMalloc(&ptr, kMiB, ACL_MEM_MALLOC_HUGE_FIRST);
    if (result != ACL_SUCCESS) break;
    blocks.push_back(ptr);
  }
  EXPECT_EQ(result, ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(blocks.size(), 16u);
  size_t free_bytes = 0;
  size_t total = 0;
  MemInfo(&free_bytes, &total);
  EXPECT_EQ(free_bytes, 0u);

  // The full device still works: copies into and out of its memory.
  std::vector<uint8_t> data(kMiB, 0x6B);
  ASSERT_ACL_OK(aclrtMemcpy(blocks.back(), kMiB, data.data(), kMiB,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<uint8_t> back(kMiB, 0);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kMiB, blocks.back(), kMiB,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, data);

  // Freeing one block makes room for exactly one more.
  ASSERT_ACL_OK(aclrtFree(blocks[3]));
  ASSERT_ACL_OK(aclrtMalloc(&blocks[3], kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  void* extra = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&extra, 512, ACL_MEM_MALLOC_HUGE_FIRST));
  for (void* block : blocks) ASSERT_ACL_OK(aclrtFree(block));
  MemInfo(&free_bytes, &total);
  EXPECT_EQ(free_bytes, kDeviceBytes);
}

TEST_F(SmallDeviceTest, EachDeviceHasItsOwnMemory) {
  void* on0 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&on0, 12 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  void* on1 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&on1, 12 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free_bytes = 0;
  size_t total = 0;
  MemInfo(&free_bytes, &total);
  EXPECT_EQ(free_bytes, 4 * kMiB);
  ASSERT_ACL_OK(aclrtFree(on1));
  ASSERT_ACL_OK(aclrtFree(on0));
}

TEST_F(SmallDeviceTest, ResetDeviceReleasesAllOfItsMemory) {
  void* ptr = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&ptr, 15 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtMalloc(&ptr, 15 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(ptr));
}

}  // namespace
