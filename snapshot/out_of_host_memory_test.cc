// A Backup that runs out of host memory (DESIGN.md §4.8) fails with
// 507908 instead of aborting: the state stays LOCKED, the previous backup is
// kept and device memory is untouched. The address space is capped with
// RLIMIT_AS so the backup's host buffer cannot be mapped. Its own binary:
// it lowers a process limit.
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::ProcessState;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr uint64_t kMiB = uint64_t{1} << 20;

uint64_t AddressSpace() { return ascend::testing::ProcStatusBytes("VmSize"); }

TEST(OutOfHostMemoryTest, BackupFailsCleanlyAndKeepsThePreviousBackup) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* small = nullptr;
  void* big = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&small, 4 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&big, 512 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(small, 4 * kMiB, 0x11, 4 * kMiB));
  // A first backup (of `small`: `big` was never written), held through its
  // Restore.
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());
  const uint64_t first = ascend::snapshot::Coordinator::Get().backup_bytes();
  ASSERT_GE(first, 4 * kMiB);
  ASSERT_LT(first, 64 * kMiB);
  // Now `big` holds data (written straight into simulated device memory),
  // and the address space has no room for a 512 MiB host buffer.
  std::memset(big, 0x5C, 512 * kMiB);
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
  rlimit capped = old;
  capped.rlim_cur = AddressSpace() + 128 * kMiB;
  ASSERT_EQ(setrlimit(RLIMIT_AS, &capped), 0);
  const aclError rc = Backup();
  ASSERT_EQ(setrlimit(RLIMIT_AS, &old), 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, rc);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_LOCKED);
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), first);
  const auto* bytes = static_cast<const uint8_t*>(big);
  for (uint64_t i = 0; i < 512 * kMiB; i += 4096) {
    ASSERT_EQ(bytes[i], 0x5C) << "device memory changed at offset " << i;
  }
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::strstr(message, "host memory"), nullptr) << message;
  ASSERT_ACL_OK(Unlock());
  ASSERT_ACL_OK(aclrtFree(big));
  ASSERT_ACL_OK(aclrtFree(small));
}

}  // namespace
