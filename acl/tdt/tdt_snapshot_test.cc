// Channels and queues across a process snapshot (DESIGN.md §5.23): they are
// host state outside it and survive Lock, Backup, device-memory loss, Restore
// and Unlock as they are; a thread blocked in a channel or queue call does
// not hold up a Lock; queue calls that allocate a buffer wait at the runtime's
// gate while the process is locked, channel calls never do.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

using Clock = std::chrono::steady_clock;

class TdtSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }

  static acltdtDataset* Ints(int32_t* values, size_t n) {
    const int64_t dims[] = {static_cast<int64_t>(n)};
    acltdtDataItem* item = acltdtCreateDataItem(
        ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, values, n * sizeof *values);
    acltdtDataset* dataset = acltdtCreateDataset();
    EXPECT_ACL_OK(acltdtAddDataItem(dataset, item));
    return dataset;
  }
  static void Free(acltdtDataset* dataset) {
    EXPECT_ACL_OK(acltdtDestroyDataItem(acltdtGetDataItem(dataset, 0)));
    EXPECT_ACL_OK(acltdtDestroyDataset(dataset));
  }
  static int32_t First(const acltdtDataset* dataset) {
    return static_cast<const int32_t*>(
        acltdtGetDataAddrFromItem(acltdtGetDataItem(dataset, 0)))[0];
  }
  static aclError Put(uint32_t qid, int32_t value, int32_t timeout = 0) {
    return acltdtEnqueueData(qid, &value, sizeof value, nullptr, 0, timeout, 0);
  }
  static int32_t Take(uint32_t qid, int32_t timeout = 0) {
    int32_t value = -1;
    size_t size = 0;
    if (acltdtDequeueData(qid, &value, sizeof value, &size, nullptr, 0,
                          timeout) != ACL_SUCCESS) {
      return -1;
    }
    return value;
  }
  static uint32_t Queue(uint32_t depth) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    EXPECT_ACL_OK(
        acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth));
    uint32_t qid = 0;
    EXPECT_ACL_OK(acltdtCreateQueue(attr, &qid));
    EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
    return qid;
  }
};

// The decision of DESIGN.md §5.23: channels, queues, routes and the buffers
// they hold survive a snapshot cycle with a device-memory loss, unchanged.
TEST_F(TdtSnapshotTest, SurviveASnapshotCycle) {
  acltdtChannelHandle* channel =
      acltdtCreateChannelWithCapacity(0, "snapshot_channel", 4);
  ASSERT_NE(channel, nullptr);
  // One dataset from device memory, one from host memory.
  int32_t host[2] = {11, 12};
  void* device = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&device, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(device, sizeof host, host, sizeof host,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  const int64_t dims[] = {2};
  acltdtDataItem* on_device = acltdtCreateDataItem(
      ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, device, sizeof host);
  acltdtDataset* from_device = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtAddDataItem(from_device, on_device));
  ASSERT_ACL_OK(acltdtSendTensor(channel, from_device, 0));
  int32_t more[1] = {13};
  acltdtDataset* from_host = Ints(more, 1);
  ASSERT_ACL_OK(acltdtSendTensor(channel, from_host, 0));

  // src -> dst with dst full, so data waits in both.
  const uint32_t src = Queue(4), dst = Queue(2);
  acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  ASSERT_ACL_OK(acltdtAddQueueRoute(list, route));
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  for (int32_t v : {1, 2, 3}) ASSERT_ACL_OK(Put(src, v));

  const pid_t pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(pid, nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));

  size_t size = 0;
  ASSERT_ACL_OK(acltdtQueryChannelSize(channel, &size));
  EXPECT_EQ(size, 2u);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  const int32_t* values = static_cast<const int32_t*>(
      acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)));
  EXPECT_EQ(values[0], 11);
  EXPECT_EQ(values[1], 12);
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  EXPECT_EQ(First(got), 13);

  // The route still binds src to dst and data still moves along it.
  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  const int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &mode));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, &src));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 4, &dst));
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  ASSERT_ACL_OK(acltdtQueryQueueRoutes(info, found));
  EXPECT_EQ(acltdtGetQueueRouteNum(found), 1u);
  ASSERT_ACL_OK(Put(src, 4));
  for (int32_t v : {1, 2, 3, 4}) EXPECT_EQ(Take(dst), v);

  ASSERT_ACL_OK(acltdtUnbindQueueRoutes(list));
  ASSERT_ACL_OK(acltdtDestroyQueue(src));
  ASSERT_ACL_OK(acltdtDestroyQueue(dst));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(found));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
  ASSERT_ACL_OK(acltdtDestroyQueueRoute(route));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(info));
  ASSERT_ACL_OK(acltdtDestroyDataset(got));
  Free(from_host);
  Free(from_device);
  ASSERT_ACL_OK(acltdtDestroyChannel(channel));
  ASSERT_ACL_OK(aclrtFree(device));
}

// Blocked receivers are not calls in flight: Lock completes. While locked,
// a channel send goes through (channels are host state, no gate) and wakes
// its receiver; a queue's EnqueueData waits at aclrtAllocBuf's gate until
// Unlock.
TEST_F(TdtSnapshotTest, BlockedCallsAndTheGate) {
  acltdtChannelHandle* channel =
      acltdtCreateChannelWithCapacity(0, "locked_channel", 2);
  const uint32_t qid = Queue(2);
  acltdtDataset* got = acltdtCreateDataset();
  std::atomic<int> received{-1}, taken{-1}, put{-1};
  std::thread receiver(
      [&] { received = acltdtReceiveTensor(channel, got, -1); });
  std::thread consumer([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));
    taken = Take(qid, -1);
  });
  // The producer opens its device before the Lock (aclrtSetDevice waits at
  // the gate too), then puts once the process is locked.
  std::atomic<bool> locked{false};
  std::thread producer([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));
    while (!locked) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    put = Put(qid, 22, -1);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));

  const pid_t pid = getpid();
  const auto start = Clock::now();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));

  int32_t value[1] = {21};
  acltdtDataset* sent = Ints(value, 1);
  ASSERT_ACL_OK(acltdtSendTensor(channel, sent, 0));
  receiver.join();
  EXPECT_EQ(received.load(), ACL_SUCCESS);
  EXPECT_EQ(First(got), 21);

  locked = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(put.load(), -1);  // waiting for the Unlock
  EXPECT_EQ(taken.load(), -1);
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  producer.join();
  consumer.join();
  EXPECT_EQ(put.load(), ACL_SUCCESS);
  EXPECT_EQ(taken.load(), 22);

  Free(sent);
  ASSERT_ACL_OK(acltdtDestroyDataset(got));
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
  ASSERT_ACL_OK(acltdtDestroyChannel(channel));
}

// What a host function launched by a BACKUP_POST stage callback does: it
// runs after Backup drained the streams, where the runtime refuses stream
// work's gated calls (207006, DESIGN.md §4.3).
struct LateDequeue {
  aclrtStream stream = nullptr;
  aclrtContext context = nullptr;
  uint32_t qid = 0;
  std::atomic<int> device{-1};
  std::atomic<int> result{-1};
  std::atomic<int32_t> value{0};
  std::atomic<bool> done{false};
};

void DequeueInHostFunc(void* raw) {
  auto* late = static_cast<LateDequeue*>(raw);
  // Not gated: a host function may make the test's context its own.
  late->device = aclrtSetCurrentContext(late->context);
  int32_t value = 0;
  size_t size = 0;
  late->result =
      acltdtDequeueData(late->qid, &value, sizeof value, &size, nullptr, 0, 0);
  late->value = value;
  late->done = true;
}

uint32_t LaunchLateDequeue(int32_t, void* raw) {
  auto* late = static_cast<LateDequeue*>(raw);
  return aclrtLaunchHostFunc(late->stream, &DequeueInHostFunc, late) ==
                 ACL_SUCCESS
             ? 0
             : 1;
}

// DESIGN.md §5.23: a dequeue by such a host function delivers its data; the
// buffer the runtime will not free then is kept and freed by a later call.
TEST_F(TdtSnapshotTest, BuffersTheRuntimeWillNotFreeYetAreFreedLater) {
  const uint32_t qid = Queue(4);
  acltdtBuf held = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(4, ACL_TDT_NORMAL_MEM, &held));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(acltdtGetBufData(held, &data, &size));
  const int32_t value = 31;
  std::memcpy(data, &value, sizeof value);
  ASSERT_ACL_OK(acltdtSetBufDataLen(held, sizeof value));
  ASSERT_ACL_OK(acltdtEnqueue(qid, held, 0));
  ASSERT_ACL_OK(Put(qid, 32));

  LateDequeue late;
  ASSERT_ACL_OK(aclrtCreateStream(&late.stream));
  late.qid = qid;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&late.context));
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_POST,
                                              &LaunchLateDequeue, &late));
  const pid_t pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(pid, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(late.stream, 5000));
  ASSERT_TRUE(late.done.load());
  ASSERT_ACL_OK(late.device.load());
  EXPECT_ACL_OK(late.result.load());  // delivered...
  EXPECT_EQ(late.value.load(), 31);
  size_t len = 0;
  EXPECT_ACL_OK(acltdtGetBufDataLen(held, &len));  // ...its buffer kept
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_POST,
                                                &LaunchLateDequeue));
  EXPECT_EQ(Take(qid), 32);  // this call frees it
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtGetBufDataLen(held, &len));
  ASSERT_ACL_OK(aclrtDestroyStream(late.stream));
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
}

}  // namespace
}  // namespace ascend
