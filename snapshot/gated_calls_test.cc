// Gated calls that reach the snapshot lock from unusual places:
//  * an ungated query on a thread without a device opens the config's default
//    device (DESIGN.md §5.1); opening a device modifies resources, so while
//    the process is locked it waits like aclrtSetDevice;
//  * a stage callback makes a gated call: it proceeds (the lock holder is
//    waiting for the callback; blocking would deadlock the process).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr int32_t kDefaultDevice = 3;

class GatedCallsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string path =
        std::string(tmp != nullptr ? tmp : "/tmp") + "/default_device.json";
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f, "{\"defaultDevice\":{\"default_device\":\"%d\"}}",
                 kDefaultDevice);
    std::fclose(f);
    ASSERT_ACL_OK(aclInit(path.c_str()));
  }
  void TearDown() override {
    for (int32_t id = 0; id < 8; ++id) (void)aclrtResetDeviceForce(id);
  }
};

std::mutex g_mu;
std::vector<int32_t> g_seen;

uint32_t RecordDevice(int32_t device, void*) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_seen.push_back(device);
  return 0;
}

TEST_F(GatedCallsTest, AQueryOpeningTheDefaultDeviceWaitsWhileLocked) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_PRE,
                                              &RecordDevice, nullptr));
  g_seen.clear();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  std::atomic<bool> returned{false};
  std::atomic<int32_t> id{-1};
  std::atomic<aclError> result{-1};
  std::thread query([&] {  // a thread that never set a device
    int32_t device = -1;
    result = aclrtGetDevice(&device);
    id = device;
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(returned.load()) << "the default device opened while locked";
  EXPECT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  {
    std::lock_guard<std::mutex> lock(g_mu);
    EXPECT_EQ(g_seen, std::vector<int32_t>{0});
  }
  EXPECT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  query.join();
  EXPECT_ACL_OK(result.load());
  EXPECT_EQ(id.load(), kDefaultDevice);
  EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_PRE,
                                                &RecordDevice));
}

struct CallbackCalls {
  aclError malloc_result = -1;
  aclError free_result = -1;
};

uint32_t AllocateAndFree(int32_t device, void* raw) {
  auto* calls = static_cast<CallbackCalls*>(raw);
  void* p = nullptr;
  calls->malloc_result = aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  if (calls->malloc_result == ACL_SUCCESS) calls->free_result = aclrtFree(p);
  return 0;
}

TEST_F(GatedCallsTest, AStageCallbacksGatedCallsProceed) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  CallbackCalls calls;
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_PRE,
                                              &AllocateAndFree, &calls));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  // Without the exemption this blocks for good: the callback waits for the
  // Unlock that its own caller would make.
  EXPECT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  EXPECT_ACL_OK(calls.malloc_result);
  EXPECT_ACL_OK(calls.free_result);
  EXPECT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_PRE,
                                                &AllocateAndFree));
}

struct BackupFromATask {
  std::atomic<bool> open{false};
  aclError result = -1;
  std::chrono::steady_clock::duration took{};
};

void WaitThenBackUp(void* raw) {
  auto* task = static_cast<BackupFromATask*>(raw);
  while (!task->open) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const auto start = std::chrono::steady_clock::now();
  task->result = aclrtSnapShotProcessBackup(getpid(), nullptr);
  task->took = std::chrono::steady_clock::now() - start;
}

// Backup drains every stream, the calling task's own included: from a host
// function it fails at once instead of waiting for itself until the timeout.
TEST_F(GatedCallsTest, BackupFromAHostFunctionFailsAtOnce) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  BackupFromATask task;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, &WaitThenBackUp, &task));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  task.open = true;
  const aclError drained = aclrtSynchronizeStreamWithTimeout(nullptr, 30000);
  EXPECT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_ACL_OK(drained);
  EXPECT_EQ(task.result, ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_LT(task.took, std::chrono::seconds(5));
}

}  // namespace
