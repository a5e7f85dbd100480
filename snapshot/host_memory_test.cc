// Host memory follows the data (DESIGN.md §4.8): with 2 GiB allocated
// and 1 MiB written, a Backup + memory loss + Restore grows the process's
// resident memory by far less than the allocation (target: under 256 MiB),
// and after Unlock, free, reset and aclFinalize it is back near the start.
// Its own binary: it reads the process's RSS.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "snapshot/coordinator.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr uint64_t kMiB = uint64_t{1} << 20;

uint64_t Rss() { return ascend::testing::ProcStatusBytes("VmRSS"); }

TEST(HostMemoryTest, BackupAndRestoreHoldOnlyWhatWasWritten) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 2048 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> bytes(kMiB);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  // 1 MiB written in the middle of the allocation.
  auto* at = static_cast<uint8_t*>(p) + 700 * kMiB;
  ASSERT_ACL_OK(aclrtMemcpy(at, bytes.size(), bytes.data(), bytes.size(),
                            ACL_MEMCPY_HOST_TO_DEVICE));
  const uint64_t start = Rss();

  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const uint64_t after_backup = Rss();
  EXPECT_LT(ascend::snapshot::Coordinator::Get().backup_bytes(), 16 * kMiB);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  const uint64_t after_restore = Rss();
  EXPECT_EQ(std::memcmp(at, bytes.data(), bytes.size()), 0);
  EXPECT_LT(after_backup, start + 256 * kMiB)
      << "RSS " << start / kMiB << " MiB -> " << after_backup / kMiB
      << " MiB after Backup";
  EXPECT_LT(after_restore, start + 256 * kMiB)
      << "RSS " << start / kMiB << " MiB -> " << after_restore / kMiB
      << " MiB after Restore";

  ASSERT_ACL_OK(Unlock());
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), 0u);
  ASSERT_ACL_OK(aclrtFree(p));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  const uint64_t end = Rss();
  EXPECT_LT(end, start + 32 * kMiB)
      << "RSS " << start / kMiB << " MiB at the start, " << end / kMiB
      << " MiB after cleanup";
}

}  // namespace
