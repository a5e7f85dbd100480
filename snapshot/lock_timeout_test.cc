// Lock times out (507905) when a resource-modifying call cannot finish, and
// rolls back to RUNNING (reference §2.5/§2.6, DESIGN.md §4.2, §4.3, §4.5).
// Runs with ACL_SNAPSHOT_TIMEOUT_MS=300 (see BUILD).
//
// The call that cannot finish: aclrtProcessReport is gated, and runs the
// report callback queued by aclrtLaunchCallback inside itself. A callback
// that waits on a latch therefore keeps one gated call in flight for as long
// as the test wants.
#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"
#include "testing/sync_helpers.h"

namespace {

using ::ascend::testing::Event;

using ::ascend::testing::Lock;
using ::ascend::testing::State;
using ::ascend::testing::Unlock;

struct Latch {
  Event inside;
  Event release;
};

void WaitingReportCallback(void* user_data) {
  auto* latch = static_cast<Latch*>(user_data);
  latch->inside.Notify();
  // Bounded: the test releases it long before.
  latch->release.WaitFor(absl::Seconds(30));
}

std::atomic<int> g_lock_pre_calls{0};
uint32_t CountLockPre(int32_t, void*) {
  g_lock_pre_calls.fetch_add(1);
  return 0;
}

TEST(LockTimeoutTest, TimeoutIsConfigured) {
  const char* env = std::getenv("ACL_SNAPSHOT_TIMEOUT_MS");
  ASSERT_NE(env, nullptr);
  EXPECT_EQ(std::string(env), "300");
}

TEST(LockTimeoutTest, InFlightCallThatCannotFinishTimesOutAndRollsBack) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                              &CountLockPre, nullptr));

  // The report thread: subscribed to `stream`, processes one report.
  Latch latch;
  Event subscribed;
  std::atomic<uint64_t> report_thread{0};
  aclError processed = -1;
  std::thread reporter([&] {
    report_thread = static_cast<uint64_t>(pthread_self());
    subscribed.Wait();
    processed = aclrtProcessReport(20000);
  });
  while (report_thread.load() == 0) absl::SleepFor(absl::Milliseconds(1));
  ASSERT_ACL_OK(aclrtSubscribeReport(report_thread.load(), stream));
  subscribed.Notify();
  ASSERT_ACL_OK(aclrtLaunchCallback(&WaitingReportCallback, &latch,
                                    ACL_CALLBACK_NO_BLOCK, stream));
  ASSERT_TRUE(latch.inside.WaitFor(absl::Seconds(10)));

  // A thread arriving at the gate during the doomed Lock is released by the
  // rollback.
  void* late_alloc = nullptr;
  aclError late_result = -1;
  Event late_done;
  std::thread late([&] {
    (void)aclrtSetDevice(0);
    absl::SleepFor(absl::Milliseconds(100));
    late_result = aclrtMalloc(&late_alloc, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    late_done.Notify();
  });

  const absl::Time start = absl::Now();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, Lock());
  const absl::Duration took = absl::Now() - start;
  EXPECT_GE(took, absl::Milliseconds(290));
  EXPECT_LT(took, absl::Seconds(5)) << "the configured timeout was ignored";
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  EXPECT_EQ(g_lock_pre_calls.load(), 1);

  EXPECT_TRUE(late_done.WaitFor(absl::Seconds(10)))
      << "a caller blocked during the failed Lock was not released";
  late.join();
  EXPECT_ACL_OK(late_result);
  EXPECT_ACL_OK(aclrtFree(late_alloc));

  // Still RUNNING: gated calls work while the report call is stuck.
  void* p = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, Unlock());

  // Once the call finishes, Lock succeeds.
  latch.release.Notify();
  reporter.join();
  EXPECT_ACL_OK(processed);
  EXPECT_ACL_OK(Lock());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  EXPECT_ACL_OK(Unlock());

  EXPECT_ACL_OK(
      aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, &CountLockPre));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(report_thread.load(), stream));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
}

TEST(LockTimeoutTest, LockWithNothingInFlightIsFast) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const absl::Time start = absl::Now();
  EXPECT_ACL_OK(Lock());
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(250));
  EXPECT_ACL_OK(Unlock());
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
}

}  // namespace
