// Work running on a stream executor, and report callbacks, while the process
// is snapshotted (DESIGN.md §4.3, §5.7), through the public C API: such work
// never waits for a snapshot that is waiting for it, and never lands in the
// middle of a Backup's copy.
//
//  * A host function's gated calls proceed while the process is LOCKED until
//    a Backup has drained the streams; Backup's drain waits for the work they
//    queue (on any stream). After the drain, until Unlock, they fail at once
//    with ACL_ERROR_RT_NO_PERMISSION (207006) instead of blocking.
//  * A thread already inside aclrtProcessReport runs a callback that reaches
//    it while LOCKED (as in the reference, only entry into aclrtProcessReport
//    blocks), so a BLOCK callback does not stall Backup's drain; one that
//    reaches it after the drain runs after Unlock.
//
// Runs with ACL_SNAPSHOT_TIMEOUT_MS=3000 (see BUILD), so a regression fails
// after a few seconds instead of a minute.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"
#include "testing/sync_helpers.h"

namespace {

using ::ascend::testing::Event;

constexpr size_t kBytes = 64 << 10;

int32_t State() {
  rtProcessState state = RT_PROCESS_STATE_MAX;
  EXPECT_EQ(rtSnapShotProcessGetState(&state), 0);
  return static_cast<int32_t>(state);
}

aclError Lock() { return aclrtSnapShotProcessLock(getpid(), nullptr); }
aclError Unlock() { return aclrtSnapShotProcessUnlock(getpid(), nullptr); }
aclError Backup() { return aclrtSnapShotProcessBackup(getpid(), nullptr); }
aclError Restore() { return aclrtSnapShotProcessRestore(getpid(), nullptr); }

// Whether every byte of `size` bytes at simulated device address `dev` (host-
// addressable) is `value`.
bool AllBytesAre(const void* dev, size_t size, uint8_t value) {
  const auto* p = static_cast<const uint8_t*>(dev);
  for (size_t i = 0; i < size; ++i) {
    if (p[i] != value) return false;
  }
  return true;
}

// Ends the test binary when a call that must return did not (a deadlock),
// instead of hanging it.
void DieUnless(bool returned, const char* what) {
  if (returned) return;
  std::fprintf(stderr, "FATAL: %s did not return (deadlock)\n", what);
  std::fflush(stderr);
  std::_Exit(1);
}

class SnapshotStreamWorkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(State(), RT_PROCESS_STATE_RUNNING);
    ASSERT_ACL_OK(aclrtSetDevice(0));
    // `first` has the lower stream id, so Backup's drain visits it first.
    ASSERT_ACL_OK(aclrtCreateStream(&first_));
    ASSERT_ACL_OK(aclrtCreateStream(&second_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(dev_, kBytes, 0x11, kBytes));
  }

  void TearDown() override {
    Quiesce();
    (void)aclrtResetDeviceForce(0);
  }

  // Unlocks if a failed test left the process locked and waits for the
  // streams, so no task still uses a test's stack once it returns.
  void Quiesce() {
    if (State() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first_, 10000));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(second_, 10000));
  }
  // Quiesce() when a test body ends, however it ends: declared after what
  // the tasks use, it runs before that goes.
  struct QuiesceOnExit {
    SnapshotStreamWorkTest* test;
    ~QuiesceOnExit() { test->Quiesce(); }
  };

  // Loses device 0's memory, restores the backup and checks that `dev_`
  // holds `value` again: the backup recorded it.
  void ExpectBackupHolds(uint8_t value) {
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_TRUE(AllBytesAre(dev_, kBytes, 0));
    ASSERT_ACL_OK(Restore());
    EXPECT_TRUE(AllBytesAre(dev_, kBytes, value))
        << "the backup does not hold the bytes written by the drained work";
  }

  aclrtStream first_ = nullptr;
  aclrtStream second_ = nullptr;
  void* dev_ = nullptr;
};

// --- Host functions that launch host functions (DESIGN.md §4.3, §5.7) -------

struct Relay {
  Event release;                       // the outer host function waits
  aclrtStream target = nullptr;        // where it launches the inner one
  void* dev = nullptr;                 // what the inner one writes
  std::atomic<aclError> launched{-1};  // the outer one's aclrtLaunchHostFunc
  std::atomic<int> inner_runs{0};
};

void InnerHostFunc(void* raw) {
  auto* relay = static_cast<Relay*>(raw);
  // Long enough that a drain which visited `target` once, before this was
  // queued, would be over before this ends.
  absl::SleepFor(absl::Milliseconds(100));
  std::memset(relay->dev, 0x5A, kBytes);
  relay->inner_runs.fetch_add(1);
}

void OuterHostFunc(void* raw) {
  auto* relay = static_cast<Relay*>(raw);
  relay->release.WaitFor(absl::Seconds(10));
  relay->launched = aclrtLaunchHostFunc(relay->target, &InnerHostFunc, relay);
}

// A host function (on the second stream) that launches a host function (on
// the first, already drained) while the process is LOCKED: the launch
// proceeds, Backup's drain waits for both and the backup holds what the inner
// one wrote. It used to block in the gate, and Backup failed with 507908 after
// the full timeout.
TEST_F(SnapshotStreamWorkTest, AHostFunctionLaunchingAHostFunctionIsDrained) {
  Relay relay;
  relay.target = first_;
  relay.dev = dev_;
  QuiesceOnExit quiesce{this};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(second_, &OuterHostFunc, &relay));
  ASSERT_ACL_OK(Lock());

  auto backup_result = std::make_shared<std::atomic<aclError>>(-1);
  auto backup_done = std::make_shared<Event>();
  std::thread backup([backup_result, backup_done] {
    *backup_result = Backup();
    backup_done->Notify();
  });
  // Backup is draining (the first stream is idle, the second is held).
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_FALSE(backup_done->HasBeenNotified());
  relay.release.Notify();
  DieUnless(backup_done->WaitFor(absl::Seconds(20)), "Backup");
  backup.join();

  EXPECT_ACL_OK(backup_result->load());
  EXPECT_ACL_OK(relay.launched.load());
  EXPECT_EQ(relay.inner_runs.load(), 1)
      << "Backup returned before the work queued by a host function ran";
  if (backup_result->load() == ACL_SUCCESS) {
    EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
    ExpectBackupHolds(0x5A);
  }
  ASSERT_ACL_OK(Unlock());
}

// A host function that keeps relaunching itself never lets its stream drain:
// Backup fails with 507908 after ACL_SNAPSHOT_TIMEOUT_MS, the process stays
// LOCKED, and nothing deadlocks.
struct Forever {
  aclrtStream stream = nullptr;
  std::atomic<bool> stop{false};
  std::atomic<int> runs{0};
};

void RelaunchItself(void* raw) {
  auto* forever = static_cast<Forever*>(raw);
  forever->runs.fetch_add(1);
  absl::SleepFor(absl::Milliseconds(1));
  if (!forever->stop.load()) {
    (void)aclrtLaunchHostFunc(forever->stream, &RelaunchItself, forever);
  }
}

TEST_F(SnapshotStreamWorkTest, AStreamThatNeverDrainsFailsTheBackupInTime) {
  Forever forever;
  forever.stream = first_;
  QuiesceOnExit quiesce{this};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(first_, &RelaunchItself, &forever));
  ASSERT_ACL_OK(Lock());
  const int runs_at_lock = forever.runs.load();
  const absl::Time start = absl::Now();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, Backup());
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  EXPECT_GT(forever.runs.load(), runs_at_lock + 10)
      << "the host function did not keep running while LOCKED";
  forever.stop = true;
  ASSERT_ACL_OK(Unlock());
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first_, 10000));
}

// A host function that opens a device no one had open while Backup drains:
// the backup would not cover it, so that Backup fails with 507908 and the
// process stays LOCKED (DESIGN.md §4.3).
struct Opener {
  Event release;
  std::atomic<aclError> opened{-1};
};

void OpenDeviceOne(void* raw) {
  auto* opener = static_cast<Opener*>(raw);
  opener->release.WaitFor(absl::Seconds(10));
  opener->opened = aclrtSetDevice(1);
}

TEST_F(SnapshotStreamWorkTest, AHostFunctionOpeningADeviceFailsTheBackup) {
  Opener opener;
  QuiesceOnExit quiesce{this};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(first_, &OpenDeviceOne, &opener));
  ASSERT_ACL_OK(Lock());
  auto backup_result = std::make_shared<std::atomic<aclError>>(-1);
  auto backup_done = std::make_shared<Event>();
  std::thread backup([backup_result, backup_done] {
    *backup_result = Backup();
    backup_done->Notify();
  });
  absl::SleepFor(absl::Milliseconds(50));
  opener.release.Notify();
  DieUnless(backup_done->WaitFor(absl::Seconds(20)), "Backup");
  backup.join();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, backup_result->load());
  EXPECT_ACL_OK(opener.opened.load());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  // Nothing changes any more: the next Backup covers both devices.
  EXPECT_ACL_OK(Backup());
  ASSERT_ACL_OK(Unlock());
  EXPECT_ACL_OK(aclrtResetDeviceForce(1));
}

// --- After the drain: refused, not blocked ----------------------------------

struct LateTask {
  aclrtStream stream = nullptr;
  Event done;
  std::atomic<aclError> launched{-1};
  std::atomic<int32_t> state_seen{-1};
  std::atomic<bool> inner_ran{false};
};

void SetInnerRan(void* raw) { static_cast<LateTask*>(raw)->inner_ran = true; }

void LateHostFunc(void* raw) {
  auto* task = static_cast<LateTask*>(raw);
  task->launched = aclrtLaunchHostFunc(task->stream, &SetInnerRan, task);
  task->state_seen = State();
  task->done.Notify();
}

// A BACKUP_POST stage callback may make gated calls (DESIGN.md §4.3): this
// one launches a host function. That host function runs after Backup drained
// the streams, so its own gated call is refused at once with 207006 instead of
// blocking until Unlock.
uint32_t LaunchLateHostFunc(int32_t, void* raw) {
  auto* task = static_cast<LateTask*>(raw);
  return aclrtLaunchHostFunc(task->stream, &LateHostFunc, task) == ACL_SUCCESS
             ? 0
             : 1;
}

TEST_F(SnapshotStreamWorkTest, AHostFunctionsCallAfterTheDrainFailsAtOnce) {
  LateTask task;
  task.stream = first_;
  LateTask again;
  again.stream = first_;
  QuiesceOnExit quiesce{this};
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_POST,
                                              &LaunchLateHostFunc, &task));
  ASSERT_ACL_OK(Lock());
  EXPECT_ACL_OK(Backup());
  EXPECT_TRUE(task.done.WaitFor(absl::Seconds(5)))
      << "a host function's gated call blocked after Backup's drain";
  EXPECT_EQ(task.launched.load(), ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_NE(task.state_seen.load(), RT_PROCESS_STATE_RUNNING);
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first_, 5000));
  EXPECT_FALSE(task.inner_ran.load());
  ASSERT_ACL_OK(Unlock());
  EXPECT_TRUE(task.done.WaitFor(absl::Seconds(10)));
  EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_POST,
                                                &LaunchLateHostFunc));
  // Running again: a host function launches host functions as before.
  ASSERT_ACL_OK(aclrtLaunchHostFunc(first_, &LateHostFunc, &again));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first_, 5000));
  ASSERT_TRUE(again.done.WaitFor(absl::Seconds(5)));
  EXPECT_ACL_OK(again.launched.load());
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first_, 5000));
  EXPECT_TRUE(again.inner_ran.load());
}

// --- Report callbacks (DESIGN.md §4.3, §5.7) ---------------------------------

// The usual CANN report thread: subscribed to a stream, it waits in
// aclrtProcessReport(-1) until stopped. Stop() wakes it with one more
// callback.
class ReportThread {
 public:
  explicit ReportThread(aclrtStream stream) : stream_(stream) {
    thread_ = std::thread([this] {
      (void)aclrtSetDevice(0);
      id_ = static_cast<uint64_t>(pthread_self());
      started_.Notify();
      subscribed_event_.Wait();
      if (subscribed_ != ACL_SUCCESS) return;
      while (!stop_.load()) (void)aclrtProcessReport(-1);
    });
    started_.Wait();
    subscribed_ = aclrtSubscribeReport(id_, stream_);
    subscribed_event_.Notify();
    // Let it reach the wait inside aclrtProcessReport.
    absl::SleepFor(absl::Milliseconds(50));
  }
  ~ReportThread() {
    // A failed test may leave the process locked; launching would block.
    if (State() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
    stop_ = true;
    if (subscribed_ == ACL_SUCCESS) {
      EXPECT_ACL_OK(aclrtLaunchCallback(&Nothing, nullptr,
                                        ACL_CALLBACK_NO_BLOCK, stream_));
    }
    thread_.join();
    if (subscribed_ == ACL_SUCCESS) {
      EXPECT_ACL_OK(aclrtUnSubscribeReport(id_, stream_));
    }
  }
  aclError subscribed() const { return subscribed_; }
  uint64_t id() const { return id_; }

 private:
  static void Nothing(void*) {}
  const aclrtStream stream_;
  std::thread thread_;
  Event started_;
  Event subscribed_event_;
  uint64_t id_ = 0;
  aclError subscribed_ = -1;
  std::atomic<bool> stop_{false};
};

void HoldUntil(void* event) {
  static_cast<Event*>(event)->WaitFor(absl::Seconds(10));
}

struct CallbackRecord {
  void* dev = nullptr;
  Event ran;
  std::atomic<int32_t> state_seen{-1};
  std::atomic<aclError> memset{-1};
  std::atomic<uint64_t> thread{0};
};

// Writes device memory with a gated call: it runs inside the report thread's
// admitted callback, so it proceeds while LOCKED.
void WritingCallback(void* raw) {
  auto* record = static_cast<CallbackRecord*>(raw);
  record->thread = static_cast<uint64_t>(pthread_self());
  record->state_seen = State();
  record->memset = aclrtMemset(record->dev, kBytes, 0x77, kBytes);
  record->ran.Notify();
}

// A BLOCK callback reaches a report thread already waiting inside
// aclrtProcessReport while the process is LOCKED: the thread runs it (its
// gated aclrtMemset proceeds), the stream drains, Backup succeeds and the
// backup holds what the callback wrote. The callback used to wait in the gate
// until Unlock, and Backup failed with 507908 after the full timeout.
TEST_F(SnapshotStreamWorkTest, AReportThreadInsideProcessReportRunsACallback) {
  ReportThread reporter(first_);
  ASSERT_ACL_OK(reporter.subscribed());
  Event hold;
  CallbackRecord record;
  record.dev = dev_;
  QuiesceOnExit quiesce{this};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(first_, &HoldUntil, &hold));
  ASSERT_ACL_OK(aclrtLaunchCallback(&WritingCallback, &record,
                                    ACL_CALLBACK_BLOCK, first_));
  ASSERT_ACL_OK(Lock());
  hold.Notify();  // the callback reaches the report thread while LOCKED
  const absl::Time start = absl::Now();
  const aclError backed_up = Backup();
  EXPECT_ACL_OK(backed_up);
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  EXPECT_TRUE(record.ran.HasBeenNotified())
      << "the BLOCK callback had not run when Backup returned";
  EXPECT_EQ(record.state_seen.load(), RT_PROCESS_STATE_LOCKED);
  EXPECT_ACL_OK(record.memset.load());
  EXPECT_EQ(record.thread.load(), reporter.id());
  if (backed_up == ACL_SUCCESS) ExpectBackupHolds(0x77);
  ASSERT_ACL_OK(Unlock());
  EXPECT_TRUE(record.ran.WaitFor(absl::Seconds(10)));
}

struct LateCallback {
  aclrtStream stream = nullptr;
  Event ran;
  std::atomic<int32_t> state_seen{-1};
};

void RecordLateCallback(void* raw) {
  auto* late = static_cast<LateCallback*>(raw);
  late->state_seen = State();
  late->ran.Notify();
}

uint32_t LaunchLateCallback(int32_t, void* raw) {
  auto* late = static_cast<LateCallback*>(raw);
  return aclrtLaunchCallback(&RecordLateCallback, late, ACL_CALLBACK_NO_BLOCK,
                             late->stream) == ACL_SUCCESS
             ? 0
             : 1;
}

// A callback that reaches the report thread after Backup drained the streams
// (here: launched by a BACKUP_POST stage callback) does not run during or
// after the copy while the process stays locked: it waits for the Unlock.
TEST_F(SnapshotStreamWorkTest, ACallbackArrivingAfterTheDrainWaitsForUnlock) {
  ReportThread reporter(first_);
  ASSERT_ACL_OK(reporter.subscribed());
  LateCallback late;
  late.stream = first_;
  QuiesceOnExit quiesce{this};
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_POST,
                                              &LaunchLateCallback, &late));
  ASSERT_ACL_OK(Lock());
  EXPECT_ACL_OK(Backup());
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(first_, 5000));
  EXPECT_FALSE(late.ran.WaitFor(absl::Milliseconds(200)))
      << "a report callback ran after Backup's drain, while BACKED_UP";
  ASSERT_ACL_OK(Unlock());
  EXPECT_TRUE(late.ran.WaitFor(absl::Seconds(10)));
  EXPECT_EQ(late.state_seen.load(), RT_PROCESS_STATE_RUNNING);
  EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_POST,
                                                &LaunchLateCallback));
}

TEST(SnapshotStreamWorkConfigTest, TimeoutIsConfigured) {
  const char* env = std::getenv("ACL_SNAPSHOT_TIMEOUT_MS");
  ASSERT_NE(env, nullptr);
  EXPECT_EQ(std::string(env), "3000");
}

}  // namespace
