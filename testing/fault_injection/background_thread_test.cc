// Runtime background threads and Lock (DESIGN.md §4.4 and §4.5), with test
// background threads registered like the runtime's own:
//  * one that is slow to park: Lock waits for it and succeeds within the
//    timeout, and a full Backup/Restore cycle keeps the data;
//  * one that never parks: Lock returns 507905 after the timeout, rolls back
//    to RUNNING, releases callers it blocked, and works once it is gone;
//  * one that parks only after the timeout, and one that deregisters while
//    Lock waits.
// Runs with ACL_SNAPSHOT_TIMEOUT_MS=2000 (see BUILD); the delays below are
// fractions of it, with wide margins for loaded machines and sanitizers.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "absl/time/time.h"
#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace ascend::testing {
namespace {

using Clock = std::chrono::steady_clock;
using rt::GlobalState;

// ACL_SNAPSHOT_TIMEOUT_MS of this test (BUILD).
constexpr int kTimeoutMs = 2000;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

// A background thread that notices a Lock only `delay` after it happens
// (and ignores Lock's wake-up), then parks.
class LateParker {
 public:
  explicit LateParker(std::chrono::milliseconds delay) : delay_(delay) {
    registration_ = GlobalState::Get().RegisterBackgroundThread(
        "test-late-parker", [this] { wakes_.fetch_add(1); });
    thread_ = std::thread([this] { Run(); });
  }
  ~LateParker() {
    stop_.store(true);
    thread_.join();
  }
  bool parked() const { return parked_.load(); }
  // Calls of ParkIfLocked that returned.
  int parks() const { return parks_.load(); }
  int wakes() const { return wakes_.load(); }

 private:
  void Run() {
    while (!stop_.load()) {
      if (GlobalState::Get().state() == rt::ProcessState::kRunning) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      std::this_thread::sleep_for(delay_);
      parked_.store(true);
      registration_->ParkIfLocked();
      parked_.store(false);
      parks_.fetch_add(1);
    }
  }

  const std::chrono::milliseconds delay_;
  std::unique_ptr<GlobalState::BackgroundThread> registration_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> parked_{false};
  std::atomic<int> parks_{0};
  std::atomic<int> wakes_{0};
  std::thread thread_;
};

class BackgroundThreadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ProcessState(), RT_PROCESS_STATE_RUNNING);
    buffers_.Add(0, (512 << 10) + 5, 11);
    buffers_.Add(1, 333, 12);
  }
  void TearDown() override {
    if (ProcessState() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
  }
  DeviceBuffers buffers_;
};

TEST_F(BackgroundThreadTest, TimeoutIsConfigured) {
  const char* env = std::getenv("ACL_SNAPSHOT_TIMEOUT_MS");
  ASSERT_NE(env, nullptr);
  EXPECT_EQ(std::string(env), std::to_string(kTimeoutMs));
  EXPECT_EQ(GlobalState::Get().timeout(), absl::Milliseconds(kTimeoutMs));
}

TEST_F(BackgroundThreadTest, SlowToParkThreadStillLetsLockSucceed) {
  LateParker parker(std::chrono::milliseconds(300));
  const auto start = Clock::now();
  ASSERT_ACL_OK(Lock());
  const double ms = MillisSince(start);
  EXPECT_GE(ms, 250.0) << "Lock returned before the thread parked";
  EXPECT_LT(ms, kTimeoutMs) << "Lock took the whole timeout";
  EXPECT_EQ(StateName(ProcessState()), "LOCKED");
  EXPECT_TRUE(parker.parked());
  EXPECT_GE(parker.wakes(), 1) << "Lock did not call the wake function";

  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclsimInjectFault(1, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  buffers_.ExpectHeldDirect("after Restore");
  EXPECT_TRUE(parker.parked()) << "the thread ran while locked";
  ASSERT_ACL_OK(Unlock());
  // The thread resumes (Unlock waits until it has left the park; the
  // test's own flag follows a moment later).
  const auto start_resume = Clock::now();
  while (parker.parked() && MillisSince(start_resume) < kTimeoutMs) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_FALSE(parker.parked());
  EXPECT_EQ(parker.parks(), 1);
  buffers_.ExpectHeldViaApi("after Unlock");
}

TEST_F(BackgroundThreadTest, NeverParkingThreadTimesOutAndRollsBack) {
  // A snapshot cycle first; its Unlock releases the backup (no Restore
  // could use it any more), and the failed Lock below must not change that.
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Unlock());
  const uint64_t backup_bytes = snapshot::Coordinator::Get().backup_bytes();
  EXPECT_EQ(backup_bytes, 0u);
  buffers_.Rewrite(20);

  auto never =
      GlobalState::Get().RegisterBackgroundThread("test-never-parks", nullptr);
  // A caller that arrives while Lock waits blocks, and is released by the
  // rollback.
  std::atomic<bool> caller_done{false};
  std::atomic<aclError> caller_rc{-1};
  std::thread caller;
  const auto start = Clock::now();
  std::thread locker([&] {
    const aclError rc = Lock();
    EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, rc);
  });
  while (ProcessState() != RT_PROCESS_STATE_LOCKED &&
         MillisSince(start) < 0.9 * kTimeoutMs) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (ProcessState() == RT_PROCESS_STATE_LOCKED) {
    const auto& b = buffers_.buffers().front();
    caller = std::thread([&, ptr = b.ptr, value = b.expected[0]] {
      caller_rc = aclrtMemset(ptr, 1, value, 1);
      caller_done = true;
    });
  }
  locker.join();
  const double ms = MillisSince(start);
  EXPECT_GE(ms, 0.9 * kTimeoutMs) << "Lock gave up before the timeout";
  EXPECT_LT(ms, 5.0 * kTimeoutMs);
  EXPECT_EQ(StateName(ProcessState()), "RUNNING");
  if (caller.joinable()) {
    caller.join();
    EXPECT_TRUE(caller_done.load());
    EXPECT_ACL_OK(caller_rc.load());
  } else {
    ADD_FAILURE() << "never saw the LOCKED state while Lock waited";
  }
  // Nothing changed: data, backup, API calls.
  buffers_.ExpectHeldViaApi("after the timed-out Lock");
  EXPECT_EQ(snapshot::Coordinator::Get().backup_bytes(), backup_bytes);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, Unlock());

  // Once the thread is gone, Lock succeeds and a snapshot brings back what
  // the failed Lock left.
  never.reset();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclsimInjectFault(1, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  buffers_.ExpectHeldDirect("restored after the timed-out Lock");
  ASSERT_ACL_OK(Unlock());
  buffers_.ExpectHeldViaApi("after Unlock");
}

TEST_F(BackgroundThreadTest, ThreadParkingAfterTheTimeoutDoesNotWedgeLock) {
  LateParker parker(std::chrono::milliseconds(kTimeoutMs * 3 / 2));
  const auto start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, Lock());
  EXPECT_GE(MillisSince(start), 0.9 * kTimeoutMs);
  EXPECT_EQ(StateName(ProcessState()), "RUNNING");
  // It looks again at 1.5 timeouts, finds RUNNING and goes on without
  // parking for good.
  std::this_thread::sleep_for(std::chrono::milliseconds(kTimeoutMs));
  EXPECT_FALSE(parker.parked());
  EXPECT_EQ(parker.parks(), 1);
  buffers_.ExpectHeldViaApi("after the timed-out Lock");
}

TEST_F(BackgroundThreadTest, ThreadDeregisteringWhileLockWaitsLetsLockSucceed) {
  auto leaving =
      GlobalState::Get().RegisterBackgroundThread("test-leaving", nullptr);
  std::thread leaver([&] {
    while (ProcessState() != RT_PROCESS_STATE_LOCKED) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    leaving.reset();  // the thread exits without parking
  });
  const auto start = Clock::now();
  const aclError rc = Lock();
  const double ms = MillisSince(start);
  leaver.join();
  ASSERT_ACL_OK(rc);
  EXPECT_LT(ms, 0.9 * kTimeoutMs)
      << "Lock waited for a thread that had deregistered";
  ASSERT_ACL_OK(Unlock());
  buffers_.ExpectHeldViaApi("after Unlock");
}

}  // namespace
}  // namespace ascend::testing
