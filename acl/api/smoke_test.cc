#include <unistd.h>

#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"

TEST(Smoke, Basic) {
  ASSERT_EQ(aclrtSetDevice(0), 0);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  std::vector<uint8_t> h(1 << 20, 7), back(1 << 20, 0);
  ASSERT_EQ(
      aclrtMemcpy(d, 1 << 20, h.data(), 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), 0);
  ASSERT_EQ(aclrtSnapShotProcessLock(getpid(), nullptr), 0);
  ASSERT_EQ(aclrtSnapShotProcessBackup(getpid(), nullptr), 0);
  ASSERT_EQ(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS), 0);
  ASSERT_EQ(aclrtSnapShotProcessRestore(getpid(), nullptr), 0);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(getpid(), nullptr), 0);
  ASSERT_EQ(aclrtMemcpyAsync(back.data(), 1 << 20, d, 1 << 20,
                             ACL_MEMCPY_DEVICE_TO_HOST, s),
            0);
  ASSERT_EQ(aclrtSynchronizeStream(s), 0);
  EXPECT_EQ(back, h);
  ASSERT_EQ(aclrtDestroyStream(s), 0);
  ASSERT_EQ(aclrtFree(d), 0);
  ASSERT_EQ(aclrtResetDeviceForce(0), 0);
}
