// Events and notifies through the ACL C API: record, query, synchronise,
// timestamps and elapsed time, stream-to-stream waits, and notify
// record/wait/timeout.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
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

void Sleep30Ms(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
}

uint64_t NowMicros() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

class EventApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  aclrtStream stream_ = nullptr;
};

// --- Events
// --------------------------------------------------------------------

TEST_F(EventApiTest, CreateAndDestroyRejectBadArguments) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateEvent(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCreateEventWithFlag(nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyEvent(&foreign));
  OnNewThread([] {
    aclrtEvent none = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEvent(&none));
    EXPECT_EQ(none, nullptr);
  });
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, 0x8));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyEvent(event));
}

// 07, aclrtCreateEventWithFlag `flag`: an OR of the documented bits, or
// ACL_EVENT_EXTERNAL alone; anything else is refused and creates nothing.
TEST_F(EventApiTest, CreateEventWithFlagTakesTheDocumentedFlags) {
  for (uint32_t flag :
       {0u, ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC,
        ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_DEVICE_USE_ONLY,
        ACL_EVENT_EXTERNAL}) {
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, flag)) << flag;
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
  }
  for (uint32_t flag : {ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC, ACL_EVENT_IPC,
                        0x100u, 0x80000000u}) {
    aclrtEvent event = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtCreateEventWithFlag(&event, flag))
        << flag;
    EXPECT_EQ(event, nullptr);
  }
}

// 07 (aclrtCreateEventWithFlag and aclrtCreateEventExWithFlag,
// constraints): an event created with flags but without ACL_EVENT_SYNC is
// not used by aclrtStreamWaitEvent (nor its timed and flagged forms) or
// aclrtResetEvent: 107000, queuing nothing; it still records, synchronizes
// and stamps time. Kept (DESIGN.md §5.22): aclrtCreateEvent's events,
// ACL_EVENT_EXTERNAL events (CANN's model_ri/1 waits for and resets one)
// and IPC events (waited for across processes, CANN's ipcevent examples).
TEST_F(EventApiTest, EventsWithoutSyncAreNeitherWaitedForNorReset) {
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  for (uint32_t flag :
       {ACL_EVENT_TIME_LINE, 0u, ACL_EVENT_CAPTURE_STREAM_PROGRESS,
        ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_TIME_LINE}) {
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, flag));
    ASSERT_ACL_OK(aclrtRecordEvent(event, other));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtStreamWaitEvent(stream_, event))
        << flag;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtStreamWaitEventWithTimeout(stream_, event, 1))
        << flag;
    EXPECT_ACL_ERROR(
        ACL_ERROR_RT_PARAM_INVALID,
        aclrtStreamWaitEventWithFlag(stream_, event, 0, ACL_EVENT_WAIT_DEFAULT))
        << flag;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtResetEvent(event, stream_))
        << flag;
    // No wait was queued, the record stands.
    aclrtEventWaitStatus waits = ACL_EVENT_WAIT_STATUS_NOT_READY;
    ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event, &waits));
    EXPECT_EQ(waits, ACL_EVENT_WAIT_STATUS_COMPLETE);
    ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
    uint64_t stamp = 0;
    ASSERT_ACL_OK(aclrtEventGetTimestamp(event, &stamp));
    EXPECT_GT(stamp, 0u);
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
    EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_ACL_OK(aclrtDestroyEvent(event));
  }
  aclrtEvent ex_timeline = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ex_timeline, ACL_EVENT_TIME_LINE));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamWaitEvent(stream_, ex_timeline));
  ASSERT_ACL_OK(aclrtDestroyEvent(ex_timeline));

  // With ACL_EVENT_SYNC, and the kept kinds, both are accepted.
  std::vector<aclrtEvent> accepted(4, nullptr);
  ASSERT_ACL_OK(aclrtCreateEvent(&accepted[0]));
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&accepted[1],
                                         ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&accepted[2], ACL_EVENT_EXTERNAL));
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&accepted[3], ACL_EVENT_SYNC));
  for (size_t i = 0; i < accepted.size(); ++i) {
    ASSERT_ACL_OK(aclrtRecordEvent(accepted[i], other)) << i;
    ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, accepted[i])) << i;
    if (i < 3) {
      ASSERT_ACL_OK(aclrtResetEvent(accepted[i], stream_)) << i;
    }
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  for (aclrtEvent e : accepted) ASSERT_ACL_OK(aclrtDestroyEvent(e));
  aclrtEvent ipc = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
  ASSERT_ACL_OK(aclrtRecordEvent(ipc, other));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, ipc));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyEvent(ipc));
  ASSERT_ACL_OK(aclrtDestroyStream(other));
}

TEST_F(EventApiTest, NeverRecordedEventIsComplete) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
  ASSERT_ACL_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  EXPECT_ACL_OK(aclrtSynchronizeEvent(event));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event, 10));
  // It has no completion time yet.
  uint64_t timestamp = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                   aclrtEventGetTimestamp(event, &timestamp));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventApiTest, QueriesRejectBadArguments) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtEventRecordedStatus recorded;
  aclrtEventStatus status;
  uint64_t timestamp = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtQueryEventStatus(nullptr, &recorded));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtQueryEventStatus(event, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(nullptr, &status));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(event, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEvent(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSynchronizeEventWithTimeout(nullptr, 10));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSynchronizeEventWithTimeout(event, -2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtEventGetTimestamp(nullptr, &timestamp));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtEventGetTimestamp(event, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(nullptr, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtResetEvent(nullptr, stream_));

  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  int foreign = 0;
  for (aclrtEvent stale : {event, static_cast<aclrtEvent>(&foreign)}) {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtQueryEventStatus(stale, &recorded));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtQueryEvent(stale, &status));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEvent(stale));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtSynchronizeEventWithTimeout(stale, 10));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtEventGetTimestamp(stale, &timestamp));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtRecordEvent(stale, stream_));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtResetEvent(stale, stream_));
  }
  // A live event on a stale stream.
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRecordEvent(event, &foreign));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtResetEvent(event, &foreign));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventApiTest, RecordQuerySynchronizeAndTimestamp) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));

  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtEventStatus status = ACL_EVENT_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_NOT_READY);
  uint64_t timestamp = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                   aclrtEventGetTimestamp(event, &timestamp));
  const Clock::time_point start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   aclrtSynchronizeEventWithTimeout(event, 30));
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(25));

  const uint64_t before = NowMicros();
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  const uint64_t after = NowMicros();
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtEventGetTimestamp(event, &timestamp));
  EXPECT_GE(timestamp + 1000, before);  // clocks may differ by rounding
  EXPECT_LE(timestamp, after + 1000);
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventApiTest, RecordOnTheDefaultStream) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ASSERT_ACL_OK(aclrtRecordEvent(event, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeEventWithTimeout(event, 5000));
  uint64_t timestamp = 0;
  EXPECT_ACL_OK(aclrtEventGetTimestamp(event, &timestamp));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventApiTest, ElapsedTime) {
  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&start));
  ASSERT_ACL_OK(aclrtCreateEvent(&end));
  float ms = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtEventElapsedTime(nullptr, start, end));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtEventElapsedTime(&ms, nullptr, end));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtEventElapsedTime(&ms, start, nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtEventElapsedTime(&ms, &foreign, end));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtEventElapsedTime(&ms, start, &foreign));

  HostGate gate;
  ASSERT_ACL_OK(aclrtRecordEvent(start, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Sleep30Ms, nullptr));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(end, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeEventWithTimeout(start, 5000));
  // `end` is still pending.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                   aclrtEventElapsedTime(&ms, start, end));
  EXPECT_EQ(ms, -1);
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 25.0f);
  EXPECT_LT(ms, 10000.0f);
  ASSERT_ACL_OK(aclrtDestroyEvent(start));
  ASSERT_ACL_OK(aclrtDestroyEvent(end));
}

TEST_F(EventApiTest, ResetEventForgetsTheCompletionInStreamOrder) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  uint64_t timestamp = 0;
  ASSERT_ACL_OK(aclrtEventGetTimestamp(event, &timestamp));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtResetEvent(event, stream_));
  // The reset has not run yet.
  EXPECT_ACL_OK(aclrtEventGetTimestamp(event, &timestamp));
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                   aclrtEventGetTimestamp(event, &timestamp));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventApiTest, StreamWaitEventAcrossTwoStreams) {
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  HostGate gate;
  std::atomic<bool> producer_done{false};
  std::atomic<bool> consumer_ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, SetFlag, &producer_done));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(consumer, SetFlag, &consumer_ran));

  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(consumer, 30));
  EXPECT_FALSE(consumer_ran.load());
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer, 5000));
  EXPECT_TRUE(producer_done.load());
  EXPECT_TRUE(consumer_ran.load());
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventApiTest, StreamWaitEventWaitsForTheLatestRecordOnly) {
  // Recording again after a wait was queued does not move the wait's target.
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer, 5000));
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

// --- Notifies
// ------------------------------------------------------------------

// 08, aclrtCreateNotify constraints: at most 8192 notifies per device on
// Atlas A2 parts; the next is refused with the kind's code, and one freed
// makes room again.
TEST_F(EventApiTest, NotifiesPerDeviceAreCappedAt8192) {
  std::vector<aclrtNotify> notifies;
  aclError last = ACL_SUCCESS;
  while (notifies.size() <= 8192) {
    aclrtNotify n = nullptr;
    last = aclrtCreateNotify(&n, 0);
    if (last != ACL_SUCCESS) break;
    notifies.push_back(n);
  }
  EXPECT_EQ(notifies.size(), 8192u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, last);
  ASSERT_ACL_OK(aclrtDestroyNotify(notifies.back()));
  notifies.pop_back();
  aclrtNotify again = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&again, 0));
  notifies.push_back(again);
  for (aclrtNotify n : notifies) ASSERT_ACL_OK(aclrtDestroyNotify(n));
}

TEST_F(EventApiTest, NotifyCallsRejectBadArguments) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(nullptr, 0));
  aclrtNotify notify = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(&notify, 2));
  EXPECT_EQ(notify, nullptr);
  // 08, aclrtCreateNotify `flag`: ACL_NOTIFY_DEVICE_USE_ONLY is documented.
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEVICE_USE_ONLY));
  ASSERT_ACL_OK(aclrtRecordNotify(notify, stream_));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  notify = nullptr;
  OnNewThread([] {
    aclrtNotify none = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateNotify(&none, 0));
  });
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRecordNotify(nullptr, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtWaitAndResetNotify(nullptr, stream_, 0));
  uint32_t id = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(nullptr, &id));

  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(notify, nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRecordNotify(notify, &foreign));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtWaitAndResetNotify(notify, &foreign, 0));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  for (aclrtNotify stale : {notify, static_cast<aclrtNotify>(&foreign)}) {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyNotify(stale));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtRecordNotify(stale, stream_));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtWaitAndResetNotify(stale, stream_, 0));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetNotifyId(stale, &id));
  }
}

TEST_F(EventApiTest, NotifyIdsAreDistinct) {
  aclrtNotify a = nullptr;
  aclrtNotify b = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&a, 0));
  ASSERT_ACL_OK(aclrtCreateNotify(&b, 0));
  uint32_t id_a = 0;
  uint32_t id_b = 0;
  ASSERT_ACL_OK(aclrtGetNotifyId(a, &id_a));
  ASSERT_ACL_OK(aclrtGetNotifyId(b, &id_b));
  EXPECT_NE(id_a, id_b);
  ASSERT_ACL_OK(aclrtDestroyNotify(a));
  ASSERT_ACL_OK(aclrtDestroyNotify(b));
}

TEST_F(EventApiTest, NotifyRecordReleasesAWaitOnAnotherStream) {
  aclrtStream waiter = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&waiter));
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  std::atomic<bool> released{false};
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, waiter, 0));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(waiter, SetFlag, &released));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(waiter, 30));
  EXPECT_FALSE(released.load());
  ASSERT_ACL_OK(aclrtRecordNotify(notify, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(waiter, 5000));
  EXPECT_TRUE(released.load());
  ASSERT_ACL_OK(aclrtDestroyStream(waiter));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(EventApiTest, NotifyRecordedBeforeTheWaitPassesAndIsReset) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  ASSERT_ACL_OK(aclrtRecordNotify(notify, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 5));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  // The wait consumed the record: a second wait times out.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
}

// aclrtWaitAndResetNotify's timeout is in seconds, 0 waiting forever (08
// notify management, parameter table).
TEST_F(EventApiTest, NotifyWaitTimesOut) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  const Clock::time_point start = Clock::now();
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  const auto waited = Clock::now() - start;
  // Seconds (08 notify management), not milliseconds.
  EXPECT_GE(waited, std::chrono::milliseconds(950));
  EXPECT_LT(waited, std::chrono::seconds(5));
  // The stream keeps working after reporting the failure.
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(EventApiTest, DestroyingANotifyReleasesItsWaiters) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 0));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  // The abandoned wait ends (as a failure) instead of blocking the stream.
  aclError result = aclrtSynchronizeStreamWithTimeout(stream_, 5000);
  EXPECT_NE(result, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_NE(result, ACL_SUCCESS);
}

TEST_F(EventApiTest, DestroyingANotifyBeforeItsWaitStartsReleasesTheWait) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 0));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  gate.Open();
  aclError result = aclrtSynchronizeStreamWithTimeout(stream_, 5000);
  EXPECT_NE(result, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_NE(result, ACL_SUCCESS);
}

}  // namespace
