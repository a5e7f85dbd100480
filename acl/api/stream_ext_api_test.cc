// Event flags, stream configuration and attributes, stream state callbacks,
// host-function threads, notify batch reset and count notifies through the
// ACL C API (DESIGN.md §5.13), and their survival across a snapshot.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

using ::ascend::testing::HostGate;
using ::ascend::testing::OnNewThread;
using ::ascend::testing::SetFlag;

// CANN's "stream is not in capture status".
constexpr int kStreamNotCaptured = 107029;

class StreamExtApiTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
};

// Lock, Backup, lose the device memory, (change things), Restore, Unlock.
template <typename Change>
void SnapshotCycle(Change change_after_backup) {
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  change_after_backup();
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
}

// --- Event flags -------------------------------------------------------------

TEST_F(StreamExtApiTest, CreateEventExWithFlagTakesTheDocumentedFlags) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC));
  for (uint32_t bad : {0x0U, 0x10U, 0x20U, 0x80U, ACL_EVENT_IPC | 0x1U,
                       ACL_EVENT_SYNC | 0x100U}) {
    aclrtEvent event = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtCreateEventExWithFlag(&event, bad))
        << bad;
    EXPECT_EQ(event, nullptr);
  }
  std::set<uint32_t> ids;
  std::vector<aclrtEvent> events;
  for (uint32_t flag : {ACL_EVENT_SYNC, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE,
                        ACL_EVENT_CAPTURE_STREAM_PROGRESS,
                        ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                            ACL_EVENT_TIME_LINE}) {
    aclrtEvent event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, flag));
    uint32_t id = UINT32_MAX;
    ASSERT_ACL_OK(aclrtGetEventId(event, &id));
    EXPECT_TRUE(ids.insert(id).second) << "id " << id << " twice";
    events.push_back(event);
  }
  for (aclrtEvent event : events) ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(StreamExtApiTest, ExtendedEventsRecordButRefuseTheLegacyQueries) {
  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  ASSERT_ACL_OK(
      aclrtCreateEventExWithFlag(&start, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(
      aclrtCreateEventExWithFlag(&end, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtRecordEvent(start, stream));
  ASSERT_ACL_OK(
      aclrtRecordEventWithFlag(end, stream, ACL_EVENT_RECORD_DEFAULT));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(end));
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtQueryEventStatus(end, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  float ms = -1;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 0.0f);

  aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtQueryEvent(end, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_RESERVED);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtResetEvent(end, stream));
  aclrtEventWaitStatus wait = ACL_EVENT_WAIT_STATUS_RESERVED;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtQueryEventWaitStatus(end, &wait));
  EXPECT_EQ(wait, ACL_EVENT_WAIT_STATUS_RESERVED);
  // A legacy event still answers them.
  aclrtEvent legacy = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&legacy));
  ASSERT_ACL_OK(aclrtQueryEvent(legacy, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtDestroyEvent(legacy));

  ASSERT_ACL_OK(aclrtDestroyEvent(start));
  ASSERT_ACL_OK(aclrtDestroyEvent(end));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamExtApiTest, IpcEventsRefuseIdsTimestampsAndQueries) {
  aclrtEvent ipc = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
  uint32_t id = 12345;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetEventId(ipc, &id));
  EXPECT_EQ(id, 12345u);
  uint64_t stamp = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtEventGetTimestamp(ipc, &stamp));
  float ms = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtEventElapsedTime(&ms, ipc, ipc));
  ASSERT_ACL_OK(aclrtDestroyEvent(ipc));
}

TEST_F(StreamExtApiTest, RecordEventWithFlag) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(
      aclrtRecordEventWithFlag(event, stream, ACL_EVENT_RECORD_DEFAULT));
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);

  // The first call with a flag fixed DEFAULT for this event's records
  // (07, constraints): EXTERNAL is refused, as a flag that cannot follow.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtRecordEventWithFlag(event, stream, ACL_EVENT_RECORD_EXTERNAL));
  // On a fresh event, EXTERNAL records belong to graph capture, and no
  // stream is captured.
  aclrtEvent fresh = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&fresh, ACL_EVENT_SYNC));
  EXPECT_ACL_ERROR(
      kStreamNotCaptured,
      aclrtRecordEventWithFlag(fresh, stream, ACL_EVENT_RECORD_EXTERNAL));
  ASSERT_ACL_OK(aclrtDestroyEvent(fresh));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRecordEventWithFlag(event, stream, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRecordEventWithFlag(nullptr, stream, 0));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRecordEventWithFlag(event, stream, 0));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamExtApiTest, StreamWaitEventWithTimeoutWaitsAndTimesOut) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtStream producer = nullptr;
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&producer));
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamWaitEventWithTimeout(consumer, event, -1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamWaitEventWithTimeout(consumer, nullptr, 1));

  // Released by the record.
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event, producer));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(consumer, event, 5));
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(consumer, &SetFlag, &ran));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(ran.load());
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  EXPECT_TRUE(ran.load());

  // Timed out: the waiting stream's task fails with 107019.
  HostGate held;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &held));
  ASSERT_ACL_OK(aclrtRecordEvent(event, producer));
  const auto begin = std::chrono::steady_clock::now();
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(consumer, event, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(consumer));
  EXPECT_GE(std::chrono::steady_clock::now() - begin,
            std::chrono::milliseconds(900));
  held.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(producer));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtDestroyStream(producer));
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
}

// 07 (aclrtSetOpWaitTimeout, constraints): after the call, the waits
// aclrtStreamWaitEvent queues wait at most that long; one that waits longer
// fails its stream's work, reported by the synchronize. 0: no timeout.
TEST_F(StreamExtApiTest, OpWaitTimeoutBoundsLaterStreamWaits) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtStream producer = nullptr;
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&producer));
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));

  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(1));
  HostGate held;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &held));
  ASSERT_ACL_OK(aclrtRecordEvent(event, producer));
  const auto begin = std::chrono::steady_clock::now();
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(consumer));
  EXPECT_GE(std::chrono::steady_clock::now() - begin,
            std::chrono::milliseconds(900));
  held.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(producer));

  // Back to no timeout: a wait longer than a second still ends well.
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));
  HostGate slow;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &slow));
  ASSERT_ACL_OK(aclrtRecordEvent(event, producer));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event));
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  slow.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(consumer));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtDestroyStream(producer));
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
}

TEST_F(StreamExtApiTest, StreamWaitEventWithFlag) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
  aclrtStream producer = nullptr;
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&producer));
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamWaitEventWithFlag(consumer, event, 0, 2));
  {
    // EXTERNAL on other events: each such call fixes its event's wait flag.
    aclrtEvent a = nullptr;
    aclrtEvent b = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&a, ACL_EVENT_SYNC));
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&b, ACL_EVENT_SYNC));
    EXPECT_ACL_ERROR(
        ACL_ERROR_INVALID_PARAM,
        aclrtStreamWaitEventWithFlag(consumer, a, 1, ACL_EVENT_WAIT_EXTERNAL));
    EXPECT_ACL_ERROR(
        kStreamNotCaptured,
        aclrtStreamWaitEventWithFlag(consumer, b, 0, ACL_EVENT_WAIT_EXTERNAL));
    ASSERT_ACL_OK(aclrtDestroyEvent(a));
    ASSERT_ACL_OK(aclrtDestroyEvent(b));
  }
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamWaitEventWithFlag(consumer, nullptr, 0, 0));

  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event, producer));
  ASSERT_ACL_OK(
      aclrtStreamWaitEventWithFlag(consumer, event, 0, ACL_EVENT_WAIT_DEFAULT));
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(consumer, &SetFlag, &ran));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(ran.load());
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  EXPECT_TRUE(ran.load());
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtDestroyStream(producer));
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
}

TEST_F(StreamExtApiTest, QueryEventWaitStatusFollowsTheWaits) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtQueryEventWaitStatus(nullptr, &status));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtQueryEventWaitStatus(event, nullptr));
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_COMPLETE);  // no wait at all

  aclrtStream producer = nullptr;
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&producer));
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event, producer));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event));
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_NOT_READY);
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event, &status));
  EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_COMPLETE);

  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtQueryEventWaitStatus(event, &status));
  uint32_t id = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetEventId(event, &id));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(nullptr, &id));
  ASSERT_ACL_OK(aclrtDestroyStream(producer));
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
}

// --- Notify batch reset ------------------------------------------------------

TEST_F(StreamExtApiTest, NotifyBatchResetClearsEveryRecordOrNone) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtNotify notifies[2] = {nullptr, nullptr};
  for (aclrtNotify& notify : notifies) {
    ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
    ASSERT_ACL_OK(aclrtRecordNotify(notify, stream));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(nullptr, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyBatchReset(notifies, 0));
  aclrtNotify stale = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&stale, 0));
  ASSERT_ACL_OK(aclrtDestroyNotify(stale));
  aclrtNotify mixed[2] = {notifies[0], stale};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtNotifyBatchReset(mixed, 2));
  // Nothing was reset: notifies[0] still holds its record.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notifies[0], stream, 5));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclrtRecordNotify(notifies[0], stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));

  ASSERT_ACL_OK(aclrtNotifyBatchReset(notifies, 2));
  for (aclrtNotify notify : notifies) {
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream, 1));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(stream));
  }
  for (aclrtNotify notify : notifies) ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

// --- Stream configuration ----------------------------------------------------

TEST_F(StreamExtApiTest, StreamConfigQuerySample) {
  // The call sequence of CANN's stream config query sample.
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  const uint32_t flags = ACL_STREAM_FAST_LAUNCH;
  const uint32_t priority = 3;
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flags,
                                        sizeof flags));
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY,
                                        &priority, sizeof priority));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&stream, config));
  int32_t id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &id));
  EXPECT_GE(id, 0);
  uint32_t got_flags = 0;
  uint32_t got_priority = 0;
  ASSERT_ACL_OK(aclrtStreamGetFlags(stream, &got_flags));
  ASSERT_ACL_OK(aclrtStreamGetPriority(stream, &got_priority));
  EXPECT_EQ(got_flags, flags);
  EXPECT_EQ(got_priority, priority);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
}

TEST_F(StreamExtApiTest, StreamConfigOptionsAndTheirErrors) {
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->priority, 0u);
  EXPECT_EQ(config->flag, 0u);
  const size_t flag = ACL_STREAM_FAST_SYNC;
  ASSERT_ACL_OK(
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flag, sizeof flag));
  EXPECT_EQ(config->flag, flag);
  static char work[64];
  void* work_ptr = work;
  const size_t work_size = sizeof work;
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_ADDR_PTR,
                                        &work_ptr, sizeof work_ptr));
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_SIZE,
                                        &work_size, sizeof work_size));
  EXPECT_EQ(config->workptr, work_ptr);
  EXPECT_EQ(config->workSize, work_size);

  const uint32_t priority = 8;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY,
                                           &priority, sizeof priority));
  const uint64_t wide = 1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY,
                                           &wide, sizeof wide));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_SIZE,
                                           &priority, sizeof priority));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flag, 2));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtSetStreamConfigOpt(nullptr, ACL_RT_STREAM_FLAG, &flag, sizeof flag));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, nullptr,
                                           sizeof flag));
  EXPECT_EQ(config->priority, 0u);  // the failures changed nothing
  EXPECT_EQ(config->flag, flag);

  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&stream, config));
  uint32_t got_flags = 0;
  ASSERT_ACL_OK(aclrtStreamGetFlags(stream, &got_flags));
  EXPECT_EQ(got_flags, flag);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  // No handle: the defaults.
  ASSERT_ACL_OK(aclrtCreateStreamV2(&stream, nullptr));
  uint32_t got_priority = 99;
  ASSERT_ACL_OK(aclrtStreamGetPriority(stream, &got_priority));
  EXPECT_EQ(got_priority, 0u);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCreateStreamV2(nullptr, config));
  config->priority = 9;  // the struct is the caller's to fill in too
  stream = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCreateStreamV2(&stream, config));
  EXPECT_EQ(stream, nullptr);

  ASSERT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDestroyStreamConfigHandle(config));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDestroyStreamConfigHandle(nullptr));
  aclrtStreamConfigHandle mine = {};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDestroyStreamConfigHandle(&mine));
}

// --- Stream attributes -------------------------------------------------------

TEST_F(StreamExtApiTest, StreamAttributesGetAndSet) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&stream, 2, 0));
  aclrtStreamAttrValue value = {};
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
  EXPECT_EQ(value.streamPriority, 2u);
  for (aclrtStreamAttr attr :
       {ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, ACL_STREAM_ATTR_USER_CUSTOM_TAG,
        ACL_STREAM_ATTR_CACHE_OP_INFO}) {
    value.reserve[0] = 77;
    ASSERT_ACL_OK(aclrtGetStreamAttribute(stream, attr, &value));
    EXPECT_EQ(value.reserve[0], 0u) << attr;
  }
  value = {};
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_EQ(value.failureMode, ACL_CONTINUE_ON_FAILURE);

  value = {};
  value.failureMode = ACL_STOP_ON_FAILURE;
  ASSERT_ACL_OK(
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  value = {};
  value.overflowSwitch = 1;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(
      stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value));
  value = {};
  value.userCustomTag = 0xDEADBEEF;
  ASSERT_ACL_OK(
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value));
  value = {};
  value.cacheOpInfoSwitch = 1;
  ASSERT_ACL_OK(
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_CACHE_OP_INFO, &value));
  value = {};
  value.streamPriority = 6;
  ASSERT_ACL_OK(
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));

  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_EQ(value.failureMode, ACL_STOP_ON_FAILURE);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(
      stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value));
  EXPECT_EQ(value.overflowSwitch, 1u);
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value));
  EXPECT_EQ(value.userCustomTag, 0xDEADBEEFu);
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_CACHE_OP_INFO, &value));
  EXPECT_EQ(value.cacheOpInfoSwitch, 1u);
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
  EXPECT_EQ(value.streamPriority, 6u);
  uint32_t priority = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(stream, &priority));
  EXPECT_EQ(priority, 6u);

  // Bad values change nothing.
  value = {};
  value.streamPriority = 8;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
  value = {};
  value.overflowSwitch = 2;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetStreamAttribute(
                       stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value));
  value = {};
  value.cacheOpInfoSwitch = 2;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_CACHE_OP_INFO, &value));
  value = {};
  value.failureMode = 2;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, nullptr));
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
  EXPECT_EQ(value.streamPriority, 6u);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(
      stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value));
  EXPECT_EQ(value.overflowSwitch, 1u);

  // The default stream (NULL) has attributes too.
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, &value));
  EXPECT_EQ(value.streamPriority, 0u);

  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
}

TEST_F(StreamExtApiTest, StreamAttributesSurviveASnapshot) {
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  const uint32_t priority = 4;
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY,
                                        &priority, sizeof priority));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&stream, config));
  ASSERT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
  int32_t id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &id));
  aclrtStreamAttrValue value = {};
  value.userCustomTag = 41;
  ASSERT_ACL_OK(
      aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value));

  SnapshotCycle([&] {
    // Changed after the backup: the restore puts the saved values back.
    aclrtStreamAttrValue changed = {};
    changed.userCustomTag = 99;
    ASSERT_ACL_OK(aclrtSetStreamAttribute(
        stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &changed));
    changed = {};
    changed.streamPriority = 1;
    ASSERT_ACL_OK(
        aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &changed));
  });

  int32_t id_after = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &id_after));
  EXPECT_EQ(id_after, id);
  ASSERT_ACL_OK(
      aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value));
  EXPECT_EQ(value.userCustomTag, 41u);
  uint32_t got_priority = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(stream, &got_priority));
  EXPECT_EQ(got_priority, priority);
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &SetFlag, &ran));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_TRUE(ran.load());
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

// --- Stream state callbacks --------------------------------------------------

struct StateLog {
  std::mutex mu;
  std::vector<std::pair<aclrtStream, aclrtStreamState>> calls;
};

void RecordState(aclrtStream stream, aclrtStreamState state, void* args) {
  auto* log = static_cast<StateLog*>(args);
  std::lock_guard<std::mutex> lock(log->mu);
  log->calls.emplace_back(stream, state);
}

TEST_F(StreamExtApiTest, StreamStateCallbacksHearCreateAndDestroy) {
  StateLog log;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRegStreamStateCallback(nullptr, &RecordState, &log));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRegStreamStateCallback("", &RecordState, &log));
  ASSERT_ACL_OK(aclrtRegStreamStateCallback("ext-test", &RecordState, &log));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRegStreamStateCallback("ext-test", &RecordState, &log));

  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtStream v2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&v2, nullptr));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  // A refused destroy is not announced.
  aclrtStream default_stream = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&default_stream));
  EXPECT_NE(0, aclrtDestroyStream(default_stream));
  ASSERT_ACL_OK(aclrtRegStreamStateCallback("ext-test", nullptr, nullptr));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(v2));  // not heard any more
  // Unregistering an unknown name is fine.
  ASSERT_ACL_OK(
      aclrtRegStreamStateCallback("never-registered", nullptr, nullptr));

  std::lock_guard<std::mutex> lock(log.mu);
  ASSERT_EQ(log.calls.size(), 3u);
  EXPECT_EQ(log.calls[0],
            std::make_pair(stream, ACL_RT_STREAM_STATE_CREATE_POST));
  EXPECT_EQ(log.calls[1], std::make_pair(v2, ACL_RT_STREAM_STATE_CREATE_POST));
  EXPECT_EQ(log.calls[2],
            std::make_pair(stream, ACL_RT_STREAM_STATE_DESTROY_PRE));
}

// --- Host-function threads ---------------------------------------------------

struct RanOn {
  std::atomic<uint64_t> thread{0};
};

void NoteThread(void* raw) {
  static_cast<RanOn*>(raw)->thread.store(static_cast<uint64_t>(pthread_self()));
}

TEST_F(StreamExtApiTest, SubscribedHostFunctionsRunOnTheSubscribedThread) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));

  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtProcessHostFunc(0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtProcessHostFunc(-2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessHostFunc(10));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSubscribeHostFunc(1, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtUnSubscribeHostFunc(1, nullptr));

  std::atomic<uint64_t> worker_id{0};
  std::atomic<bool> subscribed{false};
  std::atomic<bool> stop{false};
  std::atomic<int> processed{0};
  std::atomic<int> timeouts{0};
  std::thread worker([&] {
    worker_id = static_cast<uint64_t>(pthread_self());
    ASSERT_ACL_OK(aclrtSetCurrentContext(context));
    ASSERT_ACL_OK(aclrtSubscribeHostFunc(worker_id, stream));
    subscribed = true;
    while (!stop) {
      const aclError ret = aclrtProcessHostFunc(50);
      if (ret == ACL_SUCCESS) {
        ++processed;
      } else if (ret == ACL_ERROR_RT_REPORT_TIMEOUT) {
        ++timeouts;
      } else {
        ADD_FAILURE() << "aclrtProcessHostFunc returned " << ret;
        break;
      }
    }
  });
  while (!subscribed) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // One thread per stream.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtSubscribeHostFunc(worker_id + 1, stream));

  RanOn first;
  RanOn second;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &NoteThread, &first));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &NoteThread, &second));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(first.thread.load(), worker_id.load());
  EXPECT_EQ(second.thread.load(), worker_id.load());
  // The stream's synchronize returns once the host functions ran; the
  // worker counts each when aclrtProcessHostFunc has returned, a moment
  // later. With nothing left to run, its next calls time out.
  for (int i = 0; i < 2000 && (processed.load() < 2 || timeouts.load() == 0);
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(processed.load(), 2);

  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtUnSubscribeHostFunc(worker_id + 1, stream));
  ASSERT_ACL_OK(aclrtUnSubscribeHostFunc(worker_id, stream));
  stop = true;
  worker.join();
  EXPECT_GT(timeouts.load(), 0);

  // Unsubscribed: the stream runs its host functions itself again.
  RanOn third;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &NoteThread, &third));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_NE(third.thread.load(), 0u);
  EXPECT_NE(third.thread.load(), worker_id.load());
  EXPECT_NE(third.thread.load(), static_cast<uint64_t>(pthread_self()));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

// --- Count notifies ----------------------------------------------------------

aclrtCntNotifyRecordInfo RecordInfo(aclrtCntNotifyRecordMode mode,
                                    uint32_t value) {
  aclrtCntNotifyRecordInfo info = {};
  info.mode = mode;
  info.value = value;
  return info;
}

aclrtCntNotifyWaitInfo WaitInfo(aclrtCntNotifyWaitMode mode, uint32_t value,
                                uint32_t timeout_s = 1, bool clear = false) {
  aclrtCntNotifyWaitInfo info = {};
  info.mode = mode;
  info.value = value;
  info.timeout = timeout_s;
  info.isClear = clear ? 1 : 0;
  return info;
}

// Whether a wait in `mode` for `value` on `stream` is released at once
// (within its 1 s timeout).
bool Released(aclrtCntNotify notify, aclrtStream stream,
              aclrtCntNotifyWaitMode mode, uint32_t value) {
  aclrtCntNotifyWaitInfo info = WaitInfo(mode, value);
  if (aclrtCntNotifyWaitWithTimeout(notify, stream, &info) != ACL_SUCCESS) {
    return false;
  }
  return aclrtSynchronizeStream(stream) == ACL_SUCCESS;
}

TEST_F(StreamExtApiTest, CntNotifyCreateIdAndDestroy) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyCreate(nullptr, 0));
  aclrtCntNotify notify = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCntNotifyCreate(&notify, 1));
  EXPECT_EQ(notify, nullptr);
  aclrtCntNotify a = nullptr;
  aclrtCntNotify b = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&a, 0));
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&b, 0));
  uint32_t id_a = UINT32_MAX;
  uint32_t id_b = UINT32_MAX;
  ASSERT_ACL_OK(aclrtCntNotifyGetId(a, &id_a));
  ASSERT_ACL_OK(aclrtCntNotifyGetId(b, &id_b));
  EXPECT_NE(id_a, id_b);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyGetId(a, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCntNotifyGetId(nullptr, &id_a));
  // A count notify is not a notify, and the reverse.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyNotify(a));
  aclrtNotify plain = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&plain, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyDestroy(plain));
  ASSERT_ACL_OK(aclrtDestroyNotify(plain));

  ASSERT_ACL_OK(aclrtCntNotifyDestroy(a));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyDestroy(a));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyGetId(a, &id_a));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyDestroy(nullptr));
  // The id went back to the device (the simulator hands out the lowest free
  // id).
  aclrtCntNotify c = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&c, 0));
  uint32_t id_c = UINT32_MAX;
  ASSERT_ACL_OK(aclrtCntNotifyGetId(c, &id_c));
  EXPECT_EQ(id_c, id_a);
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(b));
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(c));
}

TEST_F(StreamExtApiTest, CntNotifyRecordModesAndWaitModes) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtCntNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&notify, 0));

  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
  aclrtCntNotifyRecordInfo set =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 5);
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, stream, &set));
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5));
  aclrtCntNotifyRecordInfo add =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3);
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, stream, &add));  // 8
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 7));
  EXPECT_TRUE(
      Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 8));
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 9));
  aclrtCntNotifyRecordInfo bit_or =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x30);
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, stream, &bit_or));  // 0x38
  EXPECT_TRUE(Released(notify, stream,
                       ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x28));
  EXPECT_TRUE(
      Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x38));
  aclrtCntNotifyRecordInfo bit_and =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x1C);
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, stream, &bit_and));  // 0x18
  EXPECT_TRUE(
      Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x18));

  // A wait that is not released fails the stream with 107019 after its
  // timeout (seconds).
  aclrtCntNotifyWaitInfo never =
      WaitInfo(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 0x18);
  const auto begin = std::chrono::steady_clock::now();
  ASSERT_ACL_OK(aclrtCntNotifyWaitWithTimeout(notify, stream, &never));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(stream));
  EXPECT_GE(std::chrono::steady_clock::now() - begin,
            std::chrono::milliseconds(900));

  // A wait with isClear empties the count when released.
  aclrtCntNotifyWaitInfo clear =
      WaitInfo(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x18, 1, true);
  ASSERT_ACL_OK(aclrtCntNotifyWaitWithTimeout(notify, stream, &clear));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
  // Reset empties it too.
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, stream, &add));
  ASSERT_ACL_OK(aclrtCntNotifyReset(notify, stream));
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));

  ASSERT_ACL_OK(aclrtCntNotifyDestroy(notify));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamExtApiTest, CntNotifyArgumentErrors) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtCntNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&notify, 0));
  aclrtCntNotifyRecordInfo record =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  aclrtCntNotifyWaitInfo wait = WaitInfo(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCntNotifyRecord(notify, stream, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCntNotifyRecord(nullptr, stream, &record));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCntNotifyWaitWithTimeout(notify, stream, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCntNotifyWaitWithTimeout(nullptr, stream, &wait));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCntNotifyReset(nullptr, stream));
  // Record mode 3 lies between the documented ones.
  aclrtCntNotifyRecordInfo three = {};
  int32_t raw = 3;
  static_assert(sizeof three.mode == sizeof raw, "a C enum");
  std::memcpy(&three.mode, &raw, sizeof raw);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCntNotifyRecord(notify, stream, &three));
  aclrtStream stale_stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stale_stream));
  ASSERT_ACL_OK(aclrtDestroyStream(stale_stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCntNotifyRecord(notify, stale_stream, &record));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCntNotifyWaitWithTimeout(notify, stale_stream, &wait));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCntNotifyReset(notify, stale_stream));
  // None of them changed the count.
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(notify));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCntNotifyRecord(notify, stream, &record));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamExtApiTest, CntNotifySynchronisesTwoStreams) {
  aclrtStream producer = nullptr;
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&producer));
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  aclrtCntNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&notify, 0));

  // The consumer waits for two records of the producer (no timeout).
  aclrtCntNotifyWaitInfo wait =
      WaitInfo(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 2, 0);
  ASSERT_ACL_OK(aclrtCntNotifyWaitWithTimeout(notify, consumer, &wait));
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(consumer, &SetFlag, &ran));

  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &gate));
  aclrtCntNotifyRecordInfo add =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, producer, &add));
  HostGate second;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(producer, &HostGate::Wait, &second));
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, producer, &add));

  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(ran.load());
  gate.Open();  // one record: still not enough
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(ran.load());
  second.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  EXPECT_TRUE(ran.load());
  ASSERT_ACL_OK(aclrtSynchronizeStream(producer));

  ASSERT_ACL_OK(aclrtCntNotifyDestroy(notify));
  ASSERT_ACL_OK(aclrtDestroyStream(producer));
  ASSERT_ACL_OK(aclrtDestroyStream(consumer));
}

TEST_F(StreamExtApiTest, DestroyingACntNotifyReleasesItsWaiters) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtCntNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&notify, 0));
  aclrtCntNotifyWaitInfo wait =
      WaitInfo(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 7, 0);
  ASSERT_ACL_OK(aclrtCntNotifyWaitWithTimeout(notify, stream, &wait));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(notify));
  // The wait gives up (its task fails) instead of blocking for ever.
  EXPECT_NE(0, aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamExtApiTest, CntNotifySurvivesASnapshot) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtCntNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&notify, 0));
  uint32_t id = UINT32_MAX;
  ASSERT_ACL_OK(aclrtCntNotifyGetId(notify, &id));
  aclrtCntNotifyRecordInfo set =
      RecordInfo(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 42);
  ASSERT_ACL_OK(aclrtCntNotifyRecord(notify, stream, &set));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));

  // (Records block while the process is locked, so nothing changes the
  // count between Backup and Restore here; the participant conformance
  // suite records again in between and checks that Restore puts the saved
  // count back.)
  SnapshotCycle([] {});

  uint32_t id_after = UINT32_MAX;
  ASSERT_ACL_OK(aclrtCntNotifyGetId(notify, &id_after));
  EXPECT_EQ(id_after, id);
  EXPECT_TRUE(Released(notify, stream, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 42));
  // The id is held by the device again: a new count notify gets another.
  aclrtCntNotify other = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&other, 0));
  uint32_t other_id = UINT32_MAX;
  ASSERT_ACL_OK(aclrtCntNotifyGetId(other, &other_id));
  EXPECT_NE(other_id, id);
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(other));
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(notify));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

}  // namespace
