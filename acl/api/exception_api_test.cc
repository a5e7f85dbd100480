// Task exception callbacks and aclrtExceptionInfo, through the C API: a
// failing stream task (a copy fault injected into the simulator) reaches
// every registered callback with its device, stream, task and thread ids
// and its error code, on the stream's executor thread, before the failure
// reaches aclrtSynchronizeStream. Mirrors CANN's 2_callback_exception
// sample's registration sequence.
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

struct Seen {
  uint32_t task_id, stream_id, thread_id, device_id, error_code;
  uint32_t caller_thread;
  void* args;
  uint32_t args_len;
  aclrtFuncHandle func;
};

std::mutex g_mu;
std::vector<Seen> g_first, g_second, g_legacy;

// The deprecated setter, exercised on purpose.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
aclError SetLegacyCallback(aclrtExceptionInfoCallback callback) {
  return aclrtSetExceptionInfoCallback(callback);
}
#pragma GCC diagnostic pop

uint32_t Tid() { return static_cast<uint32_t>(::syscall(SYS_gettid)); }

Seen Capture(aclrtExceptionInfo* info) {
  Seen s{};
  s.task_id = aclrtGetTaskIdFromExceptionInfo(info);
  s.stream_id = aclrtGetStreamIdFromExceptionInfo(info);
  s.thread_id = aclrtGetThreadIdFromExceptionInfo(info);
  s.device_id = aclrtGetDeviceIdFromExceptionInfo(info);
  s.error_code = aclrtGetErrorCodeFromExceptionInfo(info);
  s.caller_thread = Tid();
  s.args = reinterpret_cast<void*>(1);
  s.func = reinterpret_cast<aclrtFuncHandle>(1);
  EXPECT_ACL_OK(aclrtGetArgsFromExceptionInfo(info, &s.args, &s.args_len));
  EXPECT_ACL_OK(aclrtGetFuncHandleFromExceptionInfo(info, &s.func));
  return s;
}

void First(aclrtExceptionInfo* info) {
  Seen s = Capture(info);
  std::lock_guard<std::mutex> lock(g_mu);
  g_first.push_back(s);
}
void Second(aclrtExceptionInfo* info) {
  Seen s = Capture(info);
  std::lock_guard<std::mutex> lock(g_mu);
  g_second.push_back(s);
}
void Legacy(aclrtExceptionInfo* info) {
  Seen s = Capture(info);
  std::lock_guard<std::mutex> lock(g_mu);
  g_legacy.push_back(s);
}

class ExceptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    {
      std::lock_guard<std::mutex> lock(g_mu);
      g_first.clear();
      g_second.clear();
      g_legacy.clear();
    }
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtExceptionInfoCallbackUnregister(First));
    EXPECT_ACL_OK(aclrtExceptionInfoCallbackUnregister(Second));
    EXPECT_ACL_OK(SetLegacyCallback(nullptr));
    EXPECT_ACL_OK(aclrtFree(dev_));
    EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  }
  // Enqueues a copy that fails; returns its task id.
  uint32_t FailingCopy() {
    EXPECT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
    EXPECT_ACL_OK(aclrtMemcpyAsync(dev_, 64, host_, 64,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    uint32_t id = 0;
    EXPECT_ACL_OK(aclrtGetThreadLastTaskId(&id));
    return id;
  }

  aclrtStream stream_ = nullptr;
  void* dev_ = nullptr;
  uint8_t host_[64] = {};
};

TEST_F(ExceptionTest, FailingTaskReachesEveryCallbackWithItsIds) {
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(First));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(Second));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(First));  // kept once
  // A good task first, so the failing one's id is not 0.
  ASSERT_ACL_OK(aclrtMemsetAsync(dev_, 64, 0, 64, stream_));
  const uint32_t task = FailingCopy();
  const aclError sync = aclrtSynchronizeStream(stream_);
  EXPECT_NE(sync, ACL_SUCCESS);
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream_, &stream_id));
  std::lock_guard<std::mutex> lock(g_mu);
  // Already called when the synchronize returned.
  ASSERT_EQ(g_first.size(), 1u);
  ASSERT_EQ(g_second.size(), 1u);
  const Seen& s = g_first[0];
  EXPECT_EQ(s.task_id, task);
  EXPECT_EQ(s.task_id, 1u);
  EXPECT_EQ(s.stream_id, static_cast<uint32_t>(stream_id));
  EXPECT_EQ(s.device_id, 0u);
  EXPECT_EQ(s.thread_id, Tid());      // the thread that enqueued it
  EXPECT_NE(s.caller_thread, Tid());  // called on the executor
  EXPECT_EQ(s.error_code, static_cast<uint32_t>(sync));
  EXPECT_EQ(s.args, nullptr);  // not a kernel
  EXPECT_EQ(s.args_len, 0u);
  EXPECT_EQ(s.func, nullptr);
  EXPECT_EQ(g_second[0].task_id, task);
  EXPECT_TRUE(g_legacy.empty());
  (void)aclrtSynchronizeDevice();
}

TEST_F(ExceptionTest, DeprecatedSlotCoexistsAndUnregisterStopsCalls) {
  ASSERT_ACL_OK(SetLegacyCallback(Legacy));
  ASSERT_ACL_OK(SetLegacyCallback(Legacy));  // last one wins
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(Legacy));
  FailingCopy();
  (void)aclrtSynchronizeStream(stream_);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    EXPECT_EQ(g_legacy.size(), 2u);  // set and registered: two entries
  }
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(Legacy));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(Legacy));  // no-op
  FailingCopy();
  (void)aclrtSynchronizeStream(stream_);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    EXPECT_EQ(g_legacy.size(), 3u);  // only the deprecated slot left
  }
  ASSERT_ACL_OK(SetLegacyCallback(nullptr));
  FailingCopy();
  (void)aclrtSynchronizeStream(stream_);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    EXPECT_EQ(g_legacy.size(), 3u);
  }
  (void)aclrtSynchronizeDevice();
}

TEST_F(ExceptionTest, SuccessfulTasksCallNothing) {
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(First));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev_, 64, host_, 64, ACL_MEMCPY_HOST_TO_DEVICE,
                                 stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::lock_guard<std::mutex> lock(g_mu);
  EXPECT_TRUE(g_first.empty());
}

TEST_F(ExceptionTest, Errors) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtExceptionInfoCallbackRegister(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtExceptionInfoCallbackUnregister(nullptr));
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_EQ(aclrtGetStreamIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_EQ(aclrtGetThreadIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_EQ(aclrtGetDeviceIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  void* args = nullptr;
  uint32_t len = 0;
  aclrtFuncHandle func = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetArgsFromExceptionInfo(nullptr, &args, &len));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetFuncHandleFromExceptionInfo(nullptr, &func));
}

}  // namespace
