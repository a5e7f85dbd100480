// Streams through the ACL C API: creation and queries, the default (NULL)
// stream, ordering, synchronisation with and without timeouts, destroy vs
// forced destroy, the failure modes STOP and CONTINUE, and who is told of a
// failed task (stream and device synchronize, a snapshot's drain).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

using ::ascend::testing::HostGate;
using ::ascend::testing::OnNewThread;
using ::ascend::testing::SetFlag;

using Clock = std::chrono::steady_clock;

void SleepThenSetFlag(void* flag) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  SetFlag(flag);
}

// Appends its index to a shared log (only ever touched by one stream's
// executor at a time, and read after a synchronize).
struct LogEntry {
  std::vector<int>* log;
  int index;
};

void Append(void* raw) {
  auto* entry = static_cast<LogEntry*>(raw);
  entry->log->push_back(entry->index);
}

class StreamApiTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
};

TEST_F(StreamApiTest, CreateStreamRejectsBadArguments) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCreateStreamWithConfig(nullptr, 0, 0));
  aclrtStream stream = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCreateStreamWithConfig(&stream, 8, 0));
  EXPECT_EQ(stream, nullptr);
  OnNewThread([] {
    aclrtStream none = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&none));
    EXPECT_EQ(none, nullptr);
  });
}

TEST_F(StreamApiTest, StreamQueriesReportCreationSettings) {
  aclrtStream plain = nullptr;
  aclrtStream configured = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&plain));
  ASSERT_ACL_OK(
      aclrtCreateStreamWithConfig(&configured, 3, ACL_STREAM_FAST_LAUNCH));
  int32_t plain_id = -1;
  int32_t configured_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(plain, &plain_id));
  ASSERT_ACL_OK(aclrtStreamGetId(configured, &configured_id));
  EXPECT_GE(plain_id, 0);
  EXPECT_NE(plain_id, configured_id);
  uint32_t flags = 99;
  uint32_t priority = 99;
  ASSERT_ACL_OK(aclrtStreamGetFlags(plain, &flags));
  ASSERT_ACL_OK(aclrtStreamGetPriority(plain, &priority));
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(priority, 0u);
  ASSERT_ACL_OK(aclrtStreamGetFlags(configured, &flags));
  ASSERT_ACL_OK(aclrtStreamGetPriority(configured, &priority));
  EXPECT_EQ(flags, ACL_STREAM_FAST_LAUNCH);
  EXPECT_EQ(priority, 3u);

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId(plain, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamGetFlags(plain, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamGetPriority(plain, nullptr));
  ASSERT_ACL_OK(aclrtDestroyStream(plain));
  ASSERT_ACL_OK(aclrtDestroyStream(configured));

  // Handles of destroyed streams (and foreign pointers) are stale.
  int foreign = 0;
  for (aclrtStream stale :
       {plain, configured, static_cast<aclrtStream>(&foreign)}) {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtStreamGetId(stale, &plain_id));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtStreamGetFlags(stale, &flags));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtStreamGetPriority(stale, &priority));
    aclrtStreamStatus status;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtStreamQuery(stale, &status));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(stale));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtSynchronizeStreamWithTimeout(stale, 10));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtSetStreamFailureMode(stale, ACL_STOP_ON_FAILURE));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(stale));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtDestroyStreamForce(stale));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtLaunchHostFunc(stale, SetFlag, nullptr));
  }
}

TEST_F(StreamApiTest, StreamIdsAreUniqueAmongLiveStreams) {
  std::vector<aclrtStream> streams(16);
  std::set<int32_t> ids;
  for (aclrtStream& stream : streams) {
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    int32_t id = -1;
    ASSERT_ACL_OK(aclrtStreamGetId(stream, &id));
    ids.insert(id);
  }
  int32_t default_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(nullptr, &default_id));
  ids.insert(default_id);
  EXPECT_EQ(ids.size(), streams.size() + 1);
  for (aclrtStream stream : streams) ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamApiTest, NullStreamIsTheDefaultStream) {
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, SleepThenSetFlag, &ran));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_TRUE(ran.load());
  aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
  ASSERT_ACL_OK(aclrtStreamQuery(nullptr, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  uint32_t priority = 99;
  ASSERT_ACL_OK(aclrtStreamGetPriority(nullptr, &priority));
  EXPECT_EQ(priority, 0u);
  // Without a current context there is no default stream.
  OnNewThread([] {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtSynchronizeStream(nullptr));
    aclrtStreamStatus none;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtStreamQuery(nullptr, &none));
  });
}

TEST_F(StreamApiTest, TasksRunInEnqueueOrder) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  constexpr int kTasks = 200;
  std::vector<int> log;
  std::vector<LogEntry> entries(kTasks);
  for (int i = 0; i < kTasks; ++i) {
    entries[i] = LogEntry{&log, i};
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, Append, &entries[i]));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_EQ(log.size(), static_cast<size_t>(kTasks));
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(log[i], i);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamApiTest, StreamsRunIndependently) {
  // A blocked stream does not hold up another one.
  aclrtStream blocked = nullptr;
  aclrtStream free_running = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&blocked));
  ASSERT_ACL_OK(aclrtCreateStream(&free_running));
  HostGate gate;
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(blocked, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(free_running, SetFlag, &ran));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(free_running, 5000));
  EXPECT_TRUE(ran.load());
  gate.Open();
  ASSERT_ACL_OK(aclrtDestroyStream(blocked));
  ASSERT_ACL_OK(aclrtDestroyStream(free_running));
}

TEST_F(StreamApiTest, StreamQueryAndSynchronizeWithTimeout) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(stream, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSynchronizeStreamWithTimeout(stream, -2));
  aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
  ASSERT_ACL_OK(aclrtStreamQuery(stream, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);

  HostGate gate;
  std::atomic<bool> after{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &after));
  ASSERT_ACL_OK(aclrtStreamQuery(stream, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  const Clock::time_point start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(stream, 40));
  const auto waited = Clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(35));
  EXPECT_LT(waited, std::chrono::seconds(5));
  EXPECT_FALSE(after.load());

  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream, -1));
  EXPECT_TRUE(after.load());
  ASSERT_ACL_OK(aclrtStreamQuery(stream, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamApiTest, DestroyStreamRejectsNullAndTheDefaultStream) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamForce(nullptr));
  aclrtStream default_stream = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&default_stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDestroyStream(default_stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDestroyStreamForce(default_stream));
  aclrtStreamStatus status;
  EXPECT_ACL_OK(aclrtStreamQuery(default_stream, &status));
}

// 06 (aclrtDestroyStream and aclrtDestroyStreamForce, constraints): the
// stream must be in the current context. Another context's stream is
// refused with 107003 (ACL_ERROR_RT_STREAM_CONTEXT, "stream not in current
// context", 25-01) and stays usable; a thread without a current context
// gets 107002; made current, its context destroys it.
TEST_F(StreamApiTest, DestroyStreamTakesOnlyStreamsOfTheCurrentContext) {
  aclrtContext primary = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&primary));
  aclrtStream in_primary = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&in_primary));
  aclrtContext created = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&created, 0));  // now current
  aclrtStream in_created = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&in_created));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtDestroyStream(in_primary));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT,
                   aclrtDestroyStreamForce(in_primary));
  // Nothing changed: the stream still runs work.
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(in_primary, SetFlag, &ran));
  ASSERT_ACL_OK(aclrtSynchronizeStream(in_primary));
  EXPECT_TRUE(ran.load());
  ASSERT_ACL_OK(aclrtSetCurrentContext(primary));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT,
                   aclrtDestroyStreamForce(in_created));
  OnNewThread([in_primary] {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtDestroyStream(in_primary));
  });
  // Another thread whose current context is the stream's may destroy it.
  OnNewThread([in_primary, primary] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(primary));
    EXPECT_ACL_OK(aclrtDestroyStream(in_primary));
  });
  ASSERT_ACL_OK(aclrtSetCurrentContext(created));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(in_created));
  ASSERT_ACL_OK(aclrtDestroyContext(created));
}

TEST_F(StreamApiTest, DestroyStreamWaitsForPendingWork) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  std::atomic<bool> first{false};
  std::atomic<bool> second{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SleepThenSetFlag, &first));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &second));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_TRUE(first.load());
  EXPECT_TRUE(second.load());
}

TEST_F(StreamApiTest, DestroyStreamForceDiscardsPendingWork) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtNotify never = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&never, 0));
  std::atomic<bool> ran{false};
  // A wait without timeout that nobody satisfies, then work behind it.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(never, stream, 0));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &ran));
  const Clock::time_point start = Clock::now();
  ASSERT_ACL_OK(aclrtDestroyStreamForce(stream));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(ran.load());
  aclrtStreamStatus status;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(stream, &status));
  ASSERT_ACL_OK(aclrtDestroyNotify(never));
}

// aclrtDestroyStreamForce returns without waiting for the stream's queue:
// work the device already holds still runs afterwards, device synchronizes
// wait for it, and the stream's id is taken until it has run.
TEST_F(StreamApiTest, DestroyStreamForceReturnsWithoutWaitingForQueuedWork) {
  uint32_t available_before = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available_before));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  HostGate gate;
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &ran));
  const Clock::time_point start = Clock::now();
  ASSERT_ACL_OK(aclrtDestroyStreamForce(stream));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(ran.load());  // held behind the gate, not dropped
  aclrtStreamStatus status;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(stream, &status));
  uint32_t available = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
  EXPECT_EQ(available, available_before - 1);
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_TRUE(ran.load());
  // Its id comes back with the next stream operation.
  aclrtStream next = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&next));
  ASSERT_ACL_OK(aclrtDestroyStream(next));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
  EXPECT_EQ(available, available_before);
}

TEST_F(StreamApiTest, SetStreamFailureModeRejectsUnknownModes) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamFailureMode(nullptr, 2));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(nullptr, ACL_CONTINUE_ON_FAILURE));
}

// 06, aclrtSetStreamFailureMode constraints: once per stream; a second call
// is refused and changes nothing.
TEST_F(StreamApiTest, FailureModeIsSetOncePerStream) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE));
  aclrtStreamAttrValue value{};
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_EQ(value.failureMode, ACL_STOP_ON_FAILURE);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

// Queues a notify wait that times out after 1 s (a failing task), then a
// host function; returns whether the host function ran and what the first
// and a second synchronize returned.
struct FailureOutcome {
  bool later_task_ran = false;
  aclError first_sync = -1;
  aclError second_sync = -1;
  bool task_after_sync_ran = false;
};

FailureOutcome RunFailingStream(uint64_t mode) {
  FailureOutcome outcome;
  aclrtStream stream = nullptr;
  aclrtNotify notify = nullptr;
  EXPECT_ACL_OK(aclrtCreateStream(&stream));
  EXPECT_ACL_OK(aclrtCreateNotify(&notify, 0));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(stream, mode));
  std::atomic<bool> later{false};
  std::atomic<bool> after_sync{false};
  EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify, stream, 1));
  EXPECT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &later));
  outcome.first_sync = aclrtSynchronizeStreamWithTimeout(stream, 5000);
  outcome.later_task_ran = later.load();
  // The failure is reported once; work queued afterwards runs normally.
  EXPECT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &after_sync));
  outcome.second_sync = aclrtSynchronizeStreamWithTimeout(stream, 5000);
  outcome.task_after_sync_ran = after_sync.load();
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
  return outcome;
}

TEST_F(StreamApiTest, StopOnFailureSkipsTheRestOfTheStream) {
  FailureOutcome outcome = RunFailingStream(ACL_STOP_ON_FAILURE);
  EXPECT_EQ(outcome.first_sync, ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_FALSE(outcome.later_task_ran);
  EXPECT_EQ(outcome.second_sync, ACL_SUCCESS);
  EXPECT_TRUE(outcome.task_after_sync_ran);
}

TEST_F(StreamApiTest, ContinueOnFailureRunsTheRestOfTheStream) {
  FailureOutcome outcome = RunFailingStream(ACL_CONTINUE_ON_FAILURE);
  EXPECT_EQ(outcome.first_sync, ACL_ERROR_RT_WAIT_TIMEOUT);
  EXPECT_TRUE(outcome.later_task_ran);
  EXPECT_EQ(outcome.second_sync, ACL_SUCCESS);
  EXPECT_TRUE(outcome.task_after_sync_ran);
}

// Task failures are reported, never dropped: aclrtSynchronizeDevice and each
// stream's own aclrtSynchronizeStream are told of a failure once each,
// independently (runtime/stream.h, ErrorReader).
class FailedTaskTest : public StreamApiTest {
 protected:
  void SetUp() override {
    StreamApiTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&failing_));
    ASSERT_ACL_OK(aclrtCreateStream(&healthy_));
    ASSERT_ACL_OK(aclrtCreateNotify(&notify_, 0));
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtDestroyStream(failing_));
    EXPECT_ACL_OK(aclrtDestroyStream(healthy_));
    EXPECT_ACL_OK(aclrtDestroyNotify(notify_));
    StreamApiTest::TearDown();
  }
  // Queues a task on failing_ that fails (a notify wait that times out after
  // 1 s) and waits until it has run, without synchronising.
  void FailATask() {
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify_, failing_, 1));
    std::atomic<bool> ran{false};
    ASSERT_ACL_OK(aclrtLaunchHostFunc(healthy_, SetFlag, &ran));
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(10);
    aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
    while (Clock::now() < deadline) {
      ASSERT_ACL_OK(aclrtStreamQuery(failing_, &status));
      if (status == ACL_STREAM_STATUS_COMPLETE && ran.load()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    FAIL() << "the failing task did not finish";
  }

  aclrtStream failing_ = nullptr;
  aclrtStream healthy_ = nullptr;
  aclrtNotify notify_ = nullptr;
};

TEST_F(FailedTaskTest, SynchronizeDeviceReportsItAndLeavesItToTheStream) {
  FailATask();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  // Once for the device...
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(5000));
  // ...and still once for the stream whose task failed, not for the others.
  EXPECT_ACL_OK(aclrtSynchronizeStream(healthy_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(failing_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(failing_));
}

TEST_F(FailedTaskTest, EachStreamsFailureReachesTheDeviceOnce) {
  // Both streams fail: one device synchronize reports one failure and leaves
  // the other pending for the next.
  FailATask();
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify_, healthy_, 1));
  ASSERT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(healthy_, 5000));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(FailedTaskTest, ADestroyedStreamsFailureGoesToTheNextDeviceSync) {
  FailATask();
  ASSERT_ACL_OK(aclrtDestroyStream(failing_));
  ASSERT_ACL_OK(aclrtCreateStream(&failing_));  // for TearDown
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(FailedTaskTest, ADestroyedStreamsFailureAndALiveOneAreReportedInTurn) {
  FailATask();
  ASSERT_ACL_OK(aclrtDestroyStream(failing_));
  ASSERT_ACL_OK(aclrtCreateStream(&failing_));
  FailATask();  // on the new stream
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  // The live stream's own reader still has its failure.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(failing_));
}

TEST_F(FailedTaskTest, AFailureTheDeviceSawIsNotRepeatedAfterTheDestroy) {
  FailATask();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  ASSERT_ACL_OK(aclrtDestroyStream(failing_));
  ASSERT_ACL_OK(aclrtCreateStream(&failing_));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(FailedTaskTest, ForceDestroyDiscardsTheFailure) {
  FailATask();
  ASSERT_ACL_OK(aclrtDestroyStreamForce(failing_));
  ASSERT_ACL_OK(aclrtCreateStream(&failing_));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(FailedTaskTest, ADestroyedStreamsFailureGoesWithTheDeviceOnReset) {
  FailATask();
  ASSERT_ACL_OK(aclrtDestroyStream(failing_));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  // The reset took the other objects too; new ones for TearDown.
  ASSERT_ACL_OK(aclrtCreateStream(&failing_));
  ASSERT_ACL_OK(aclrtCreateStream(&healthy_));
  ASSERT_ACL_OK(aclrtCreateNotify(&notify_, 0));
}

TEST_F(FailedTaskTest, SynchronizeStreamDoesNotHideItFromSynchronizeDevice) {
  FailATask();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(failing_, 5000));
  EXPECT_ACL_OK(aclrtSynchronizeStream(failing_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtSynchronizeDeviceWithTimeout(5000));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(FailedTaskTest, StopOnFailureSkipsUntilTheStreamItselfIsTold) {
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(failing_, ACL_STOP_ON_FAILURE));
  FailATask();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
  // The stream has not been told yet: its later work is still skipped.
  std::atomic<bool> skipped{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(failing_, SetFlag, &skipped));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(failing_));
  EXPECT_FALSE(skipped.load());
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(failing_, SetFlag, &ran));
  EXPECT_ACL_OK(aclrtSynchronizeStream(failing_));
  EXPECT_TRUE(ran.load());
}

TEST_F(FailedTaskTest, SnapshotBackupDrainsWithoutTakingIt) {
  FailATask();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(failing_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeDevice());
}

TEST_F(StreamApiTest, StreamWaitEventRejectsBadHandles) {
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamWaitEvent(stream, nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamWaitEvent(stream, &foreign));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamWaitEvent(&foreign, event));
  // Waiting for a never-recorded event passes at once.
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream, event));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream, 5000));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(StreamApiTest, StreamHandlesWorkFromAnyThread) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  std::atomic<bool> ran{false};
  // Stream handles are process-wide: any thread may launch and synchronise.
  OnNewThread([stream, &ran] {
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &ran));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  });
  EXPECT_TRUE(ran.load());
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

void Increment(void* counter) {
  static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

TEST_F(StreamApiTest, ConcurrentStreamLifecyclesFromManyThreads) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  constexpr int kThreads = 4;
  constexpr int kRounds = 25;
  constexpr int kTasksPerRound = 8;
  std::atomic<int> counter{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) {
        failures.fetch_add(1);
        return;
      }
      for (int round = 0; round < kRounds; ++round) {
        aclrtStream stream = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        for (int i = 0; i < kTasksPerRound; ++i) {
          if (aclrtLaunchHostFunc(stream, Increment, &counter) != ACL_SUCCESS) {
            failures.fetch_add(1);
          }
        }
        // Alternate a synchronize-then-destroy with a destroy that waits.
        if (round % 2 == 0 &&
            aclrtSynchronizeStreamWithTimeout(stream, 10000) != ACL_SUCCESS) {
          failures.fetch_add(1);
        }
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(counter.load(), kThreads * kRounds * kTasksPerRound);
}

}  // namespace
