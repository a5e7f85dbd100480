// A process whose device memory is larger than the host memory it may
// still use (DESIGN.md §4.15): with 2 GiB of device memory and the address
// space capped 1.5 GiB above what it uses (RLIMIT_AS), a Backup into host
// memory fails cleanly (507908), while a Backup to disk with a 256 MiB host
// buffer completes, and Lock → Backup → memory loss → Restore → Unlock
// brings every byte back. Peak RSS across that Backup and Restore stays
// within host_buffer_mb + 64 MiB of the RSS before it.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::ProcStatusBytes;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr int kAllocations = 32;
constexpr uint64_t kAllocationBytes = 64 * kMiB;  // 2 GiB in all
constexpr uint64_t kHostBufferMb = 256;

// Resets VmHWM to the current RSS.
void ResetPeakRss() {
  const int fd = open("/proc/self/clear_refs", O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "5", 1), 1);
  close(fd);
}

TEST(DiskImageLimitTest, TwoGibOfDeviceMemoryGoToDiskWithinTheHostBuffer) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir =
      std::string(base != nullptr ? base : "/tmp") + "/limit-XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  ASSERT_ACL_OK(aclInit(nullptr));  // images in host memory first
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<void*> ptrs(kAllocations);
  for (int i = 0; i < kAllocations; ++i) {
    ASSERT_ACL_OK(
        aclrtMalloc(&ptrs[i], kAllocationBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(
        aclrtMemset(ptrs[i], kAllocationBytes, 0x40 + i, kAllocationBytes));
  }
  // The head of each allocation holds distinct bytes too.
  std::vector<uint8_t> head(kMiB);
  for (int i = 0; i < kAllocations; ++i) {
    for (uint64_t b = 0; b < kMiB; ++b) {
      head[b] = static_cast<uint8_t>(b * 31 + i);
    }
    ASSERT_ACL_OK(aclrtMemcpy(ptrs[i], kMiB, head.data(), kMiB,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  std::vector<uint8_t> check(kAllocationBytes);

  // Room for 1.5 GiB more: not for a 2 GiB image in host memory.
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &old_limit), 0);
  struct rlimit limit = old_limit;
  limit.rlim_cur = ProcStatusBytes("VmSize") + 1536 * kMiB;
  ASSERT_EQ(setrlimit(RLIMIT_AS, &limit), 0);

  ASSERT_ACL_OK(Lock());
  EXPECT_EQ(Backup(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  ASSERT_ACL_OK(Unlock());

  // The same process, images on disk.
  ASSERT_ACL_OK(aclFinalize());
  setenv("ASCENDCL_SNAPSHOT_IMAGE_DIR", dir.c_str(), 1);
  setenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB",
         std::to_string(kHostBufferMb).c_str(), 1);
  ASSERT_ACL_OK(aclInit(nullptr));

  ResetPeakRss();
  const uint64_t before = ProcStatusBytes("VmRSS");
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  const uint64_t peak = ProcStatusBytes("VmHWM");
  ASSERT_ACL_OK(Unlock());
  ASSERT_EQ(setrlimit(RLIMIT_AS, &old_limit), 0);
  EXPECT_LE(peak, before + (kHostBufferMb + 64) * kMiB)
      << "peak RSS " << peak / kMiB << " MiB, before " << before / kMiB
      << " MiB";
  std::printf("RSS before the Backup %lu MiB, peak through Restore %lu MiB\n",
              static_cast<unsigned long>(before / kMiB),
              static_cast<unsigned long>(peak / kMiB));

  for (int i = 0; i < kAllocations; ++i) {
    ASSERT_ACL_OK(aclrtMemcpy(check.data(), kAllocationBytes, ptrs[i],
                              kAllocationBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::vector<uint8_t> expected(kAllocationBytes, 0x40 + i);
    for (uint64_t b = 0; b < kMiB; ++b) {
      expected[b] = static_cast<uint8_t>(b * 31 + i);
    }
    ASSERT_TRUE(std::memcmp(check.data(), expected.data(), kAllocationBytes) ==
                0)
        << "allocation " << i << " differs";
  }
  for (void* p : ptrs) ASSERT_ACL_OK(aclrtFree(p));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  unsetenv("ASCENDCL_SNAPSHOT_IMAGE_DIR");
  rmdir(dir.c_str());
}

}  // namespace
