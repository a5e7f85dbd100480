// Queues, their data and the shared buffers through the C API (docs
// 17-02_shared_queue_management, 17-03_shared_buffer_management,
// 25-03_Operation_APIs: acltdtQueueAttr).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

using Clock = std::chrono::steady_clock;

int64_t MillisSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
                                                               start)
      .count();
}

class QueueTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    for (uint32_t qid : queues_) EXPECT_ACL_OK(acltdtDestroyQueue(qid));
  }
  // A queue of the current device with a unique name.
  uint32_t Queue(uint32_t depth) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    EXPECT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32,
                                     sizeof depth, &depth));
    uint32_t qid = UINT32_MAX;
    EXPECT_ACL_OK(acltdtCreateQueue(attr, &qid));
    EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
    queues_.push_back(qid);
    return qid;
  }
  static aclError Put(uint32_t qid, int32_t value, int32_t timeout = 0) {
    return acltdtEnqueueData(qid, &value, sizeof value, nullptr, 0, timeout, 0);
  }
  // The next value of the queue, or -1.
  static int32_t Take(uint32_t qid, int32_t timeout = 0) {
    int32_t value = -1;
    size_t size = 0;
    if (acltdtDequeueData(qid, &value, sizeof value, &size, nullptr, 0,
                          timeout) != ACL_SUCCESS) {
      return -1;
    }
    return size == sizeof value ? value : -1;
  }
  std::vector<uint32_t> queues_;
};

// 25-03 acltdtQueueAttr: defaults, set, get and their errors.
TEST_F(QueueTest, Attributes) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  ASSERT_NE(attr, nullptr);
  const char* name = "x";
  uint32_t depth = 0;
  size_t size = 0;
  ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name,
                                   &size, &name));
  EXPECT_EQ(size, sizeof name);
  EXPECT_STREQ(name, "");
  ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32,
                                   sizeof depth, &size, &depth));
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(depth, 8u);  // 17-02 acltdtCreateQueue: default depth 8

  std::string mine = "attr_queue";
  const char* set = mine.c_str();
  ASSERT_ACL_OK(
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof set, &set));
  mine[0] = 'X';  // the attributes keep a copy
  const uint32_t sixteen = 16;
  ASSERT_ACL_OK(
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &sixteen));
  ASSERT_ACL_OK(
      acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, 16, &size, &name));
  EXPECT_STREQ(name, "attr_queue");
  uint64_t wide = 0;
  ASSERT_ACL_OK(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32,
                                   sizeof wide, &size, &wide));
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(wide, 16u);

  // len: the parameter's size for Set, at least that for Get.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, 4, &set));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 8, &wide));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &size, &depth));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, 4, &size, &name));
  // Names: not NULL, at most 127 bytes.
  const char* none = nullptr;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof none, &none));
  const std::string too_long(128, 'q');
  const char* long_name = too_long.c_str();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR,
                                      sizeof long_name, &long_name));
  const std::string longest(127, 'q');
  const char* longest_name = longest.c_str();
  EXPECT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR,
                                   sizeof longest_name, &longest_name));
  // NULL arguments (unknown types: tdt_header_test.c, in C, where an enum
  // object may hold any int; handing one on in C++ loads it, undefined).
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueAttr(nullptr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr, &depth));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &size, nullptr));
  ASSERT_ACL_OK(acltdtDestroyQueueAttr(attr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyQueueAttr(nullptr));
}

// 17-02 acltdtCreateQueue / acltdtDestroyQueue.
TEST_F(QueueTest, CreateAndDestroy) {
  uint32_t qid = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtCreateQueue(nullptr, nullptr));
  // attr NULL: a generated name and depth 8.
  ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &qid));
  for (int i = 0; i < 8; ++i) ASSERT_ACL_OK(Put(qid, i));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL, Put(qid, 8));
  uint32_t second = 0;
  ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &second));
  EXPECT_NE(second, qid);
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));  // frees the 8 buffers in it
  ASSERT_ACL_OK(acltdtDestroyQueue(second));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtDestroyQueue(qid));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, Put(qid, 1));
  uint32_t third = 0;
  ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &third));
  EXPECT_NE(third, qid);  // ids are never reused
  EXPECT_NE(third, second);
  ASSERT_ACL_OK(acltdtDestroyQueue(third));

  // Depth in [2, 8192]; names unique among the device's queues.
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  for (uint32_t depth : {0u, 1u, 8193u}) {
    ASSERT_ACL_OK(
        acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtCreateQueue(attr, &qid));
  }
  const uint32_t two = 2;
  ASSERT_ACL_OK(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &two));
  const char* name = "unique_queue";
  ASSERT_ACL_OK(
      acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name));
  ASSERT_ACL_OK(acltdtCreateQueue(attr, &qid));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtCreateQueue(attr, &second));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(acltdtCreateQueue(attr, &second));  // another device's names
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtDestroyQueue(qid));
  ASSERT_ACL_OK(acltdtDestroyQueue(second));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
  ASSERT_ACL_OK(acltdtCreateQueue(attr, &qid));  // the name is free again
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
  ASSERT_ACL_OK(acltdtDestroyQueueAttr(attr));
}

// 17-02: the calls that name the current device need one.
TEST_F(QueueTest, CallsNeedACurrentDevice) {
  const uint32_t qid = Queue(2);
  std::thread bare([&] {
    uint32_t id = 0;
    int32_t value = 1;
    size_t size = 0;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     acltdtCreateQueue(nullptr, &id));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, acltdtDestroyQueue(qid));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     acltdtEnqueueData(qid, &value, 4, nullptr, 0, 0, 0));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     acltdtDequeueData(qid, &value, 4, &size, nullptr, 0, 0));
    acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, acltdtBindQueueRoutes(list));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, acltdtUnbindQueueRoutes(list));
    EXPECT_ACL_OK(acltdtDestroyQueueRouteList(list));
  });
  bare.join();
}

// 17-02 acltdtEnqueueData / acltdtDequeueData: bytes and user data in, the
// same out, in order; the size rules.
TEST_F(QueueTest, DataAndUserData) {
  const uint32_t qid = Queue(4);
  const char text[] = "tensor bytes";
  uint8_t context[96] = {1, 2, 3, 4};
  context[95] = 9;
  ASSERT_ACL_OK(acltdtEnqueueData(qid, text, sizeof text, context,
                                  sizeof context, 0, /*rsv=*/123));
  ASSERT_ACL_OK(Put(qid, 77));
  char out[64] = {};
  size_t size = 0;
  // Too small a buffer: the size needed comes back, the data stays.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDequeueData(qid, out, 4, &size, nullptr, 0, 0));
  EXPECT_EQ(size, sizeof text);
  uint8_t got_context[8] = {};
  ASSERT_ACL_OK(acltdtDequeueData(qid, out, sizeof out, &size, got_context,
                                  sizeof got_context, 0));
  EXPECT_EQ(size, sizeof text);
  EXPECT_STREQ(out, text);
  EXPECT_EQ(got_context[0], 1);
  EXPECT_EQ(got_context[3], 4);
  EXPECT_EQ(Take(qid), 77);
  EXPECT_EQ(Take(qid), -1);

  // Argument rules (17-02: userDataSize <= 96; NULL user data with 0).
  int32_t value = 0;
  const uint8_t big[97] = {};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtEnqueueData(qid, nullptr, 4, nullptr, 0, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtEnqueueData(qid, &value, 0, nullptr, 0, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtEnqueueData(qid, &value, 4, big, sizeof big, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtEnqueueData(qid, &value, 4, nullptr, 8, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtEnqueueData(qid, &value, 4, nullptr, 0, -2, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, Put(qid + 1000, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDequeueData(qid, nullptr, 4, &size, nullptr, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDequeueData(qid, &value, 4, nullptr, nullptr, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDequeueData(qid, &value, 0, &size, nullptr, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDequeueData(qid, &value, 4, &size, nullptr, 4, 0));
  uint8_t large[97];
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDequeueData(qid, &value, 4, &size, large, 97, 0));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      acltdtDequeueData(qid + 1000, &value, 4, &size, nullptr, 0, 0));
  EXPECT_EQ(Take(qid), -1);  // none of the refused calls queued anything
}

// 17-02 the timeout rule: 0 answers at once, >0 waits, -1 until possible.
TEST_F(QueueTest, TimeoutsAndBlocking) {
  const uint32_t qid = Queue(2);
  ASSERT_ACL_OK(Put(qid, 1));
  ASSERT_ACL_OK(Put(qid, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL, Put(qid, 3, 0));
  auto start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL, Put(qid, 3, 40));
  EXPECT_GE(MillisSince(start), 35);
  std::atomic<int> put{-1};
  std::thread producer([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));  // the *Data calls need a device
    put = Put(qid, 3, -1);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(put.load(), -1);
  EXPECT_EQ(Take(qid), 1);
  producer.join();
  EXPECT_EQ(put.load(), ACL_SUCCESS);
  EXPECT_EQ(Take(qid), 2);
  EXPECT_EQ(Take(qid), 3);
  int32_t value = 0;
  size_t size = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_EMPTY,
                   acltdtDequeueData(qid, &value, 4, &size, nullptr, 0, 0));
  start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_EMPTY,
                   acltdtDequeueData(qid, &value, 4, &size, nullptr, 0, 30));
  EXPECT_GE(MillisSince(start), 25);
  std::atomic<int> taken{-1};
  std::thread consumer([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));
    taken = Take(qid, -1);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_ACL_OK(Put(qid, 42));
  consumer.join();
  EXPECT_EQ(taken.load(), 42);
}

// 17-02 acltdtDestroyQueue while a consumer waits on it.
TEST_F(QueueTest, DestroyWakesWaiters) {
  uint32_t qid = 0;
  ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &qid));
  std::atomic<int> result{-1};
  std::thread consumer([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));
    int32_t value = 0;
    size_t size = 0;
    result = acltdtDequeueData(qid, &value, 4, &size, nullptr, 0, -1);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
  consumer.join();
  EXPECT_EQ(result.load(), ACL_ERROR_RT_PARAM_INVALID);
}

// 17-02 data in device memory, both ways.
TEST_F(QueueTest, DeviceMemoryData) {
  const uint32_t qid = Queue(2);
  const int32_t host[4] = {9, 8, 7, 6};
  void* src = nullptr;
  void* dst = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&src, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&dst, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(src, sizeof host, host, sizeof host,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(acltdtEnqueueData(qid, src, sizeof host, nullptr, 0, 0, 0));
  size_t size = 0;
  ASSERT_ACL_OK(acltdtDequeueData(qid, dst, sizeof host, &size, nullptr, 0, 0));
  EXPECT_EQ(size, sizeof host);
  int32_t back[4] = {};
  ASSERT_ACL_OK(aclrtMemcpy(back, sizeof back, dst, sizeof back,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::memcmp(back, host, sizeof host), 0);
  ASSERT_ACL_OK(aclrtFree(src));
  ASSERT_ACL_OK(aclrtFree(dst));
}

// 17-02 acltdtEnqueue / acltdtDequeue hand buffers over (17-03 buffers).
TEST_F(QueueTest, BuffersAreHandedOver) {
  const uint32_t qid = Queue(2);
  acltdtBuf buf = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &buf));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(acltdtGetBufData(buf, &data, &size));
  EXPECT_EQ(size, 64u);
  std::memcpy(data, "abcdef", 6);
  ASSERT_ACL_OK(acltdtSetBufDataLen(buf, 6));
  const uint16_t tag = 0xBEEF;
  ASSERT_ACL_OK(acltdtSetBufUserData(buf, &tag, sizeof tag, 10));
  ASSERT_ACL_OK(acltdtEnqueue(qid, buf, 0));
  // The queue owns it now.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtEnqueue(qid, buf, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtFreeBuf(buf));
  acltdtBuf out = nullptr;
  ASSERT_ACL_OK(acltdtDequeue(qid, &out, 0));
  EXPECT_EQ(out, buf);
  size_t len = 0;
  ASSERT_ACL_OK(acltdtGetBufDataLen(out, &len));
  EXPECT_EQ(len, 6u);
  uint16_t tag_back = 0;
  ASSERT_ACL_OK(acltdtGetBufUserData(out, &tag_back, sizeof tag_back, 10));
  EXPECT_EQ(tag_back, tag);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtDequeue(qid, &out, 0));

  // Bytes enqueued as data come out as a buffer, and a buffer as bytes.
  ASSERT_ACL_OK(Put(qid, 1234));
  ASSERT_ACL_OK(acltdtDequeue(qid, &out, 0));
  ASSERT_ACL_OK(acltdtGetBufData(out, &data, &size));
  ASSERT_ACL_OK(acltdtGetBufDataLen(out, &len));
  EXPECT_EQ(len, 4u);
  EXPECT_EQ(*static_cast<int32_t*>(data), 1234);
  ASSERT_ACL_OK(acltdtEnqueue(qid, out, -1));
  EXPECT_EQ(Take(qid), 1234);         // DequeueData freed it
  ASSERT_ACL_OK(acltdtFreeBuf(buf));  // dequeued: the caller's again

  // Errors.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtEnqueue(qid, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtEnqueue(qid, buf, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDequeue(qid, nullptr, 0));
  ASSERT_ACL_OK(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &buf));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtEnqueue(qid, buf, -3));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   acltdtEnqueue(qid + 1000, buf, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   acltdtDequeue(qid + 1000, &out, 0));
  ASSERT_ACL_OK(acltdtEnqueue(qid, buf, 0));
  acltdtBuf extra = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &extra));
  ASSERT_ACL_OK(acltdtEnqueue(qid, extra, 0));
  acltdtBuf third = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &third));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL, acltdtEnqueue(qid, third, 0));
  ASSERT_ACL_OK(acltdtFreeBuf(third));  // still the caller's
  // TearDown destroys the queue with the two buffers in it.
}

// 17-03: the buffer functions are the runtime's mbufs.
TEST_F(QueueTest, SharedBuffers) {
  acltdtBuf buf = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAllocBuf(8, ACL_TDT_DVPP_MEM, &buf));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtAllocBuf(8, 9, &buf));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAllocBuf(0, ACL_TDT_NORMAL_MEM, &buf));
  ASSERT_ACL_OK(acltdtAllocBuf(32, ACL_TDT_NORMAL_MEM, &buf));
  size_t len = 7;
  ASSERT_ACL_OK(acltdtGetBufDataLen(buf, &len));
  EXPECT_EQ(len, 0u);  // 17-03: 0 until set
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtSetBufDataLen(buf, 33));
  // User data: offset + size within 96 bytes.
  uint8_t bytes[96] = {};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSetBufUserData(buf, bytes, 90, 7));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetBufUserData(buf, bytes, 97, 0));
  ASSERT_ACL_OK(acltdtSetBufUserData(buf, bytes, 96, 0));
  // Reference copies share the data region.
  acltdtBuf ref = nullptr;
  ASSERT_ACL_OK(acltdtCopyBufRef(buf, &ref));
  void *a = nullptr, *b = nullptr;
  size_t sa = 0, sb = 0;
  ASSERT_ACL_OK(acltdtGetBufData(buf, &a, &sa));
  ASSERT_ACL_OK(acltdtGetBufData(ref, &b, &sb));
  EXPECT_EQ(a, b);
  // Chains: the head is index 0.
  acltdtBuf tail = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(4, ACL_TDT_NORMAL_MEM, &tail));
  ASSERT_ACL_OK(acltdtAppendBufChain(buf, tail));
  uint32_t num = 0;
  ASSERT_ACL_OK(acltdtGetBufChainNum(buf, &num));
  EXPECT_EQ(num, 2u);
  acltdtBuf at = nullptr;
  ASSERT_ACL_OK(acltdtGetBufFromChain(buf, 1, &at));
  EXPECT_EQ(at, tail);
  ASSERT_ACL_OK(acltdtGetBufFromChain(buf, 0, &at));
  EXPECT_EQ(at, buf);
  ASSERT_ACL_OK(acltdtFreeBuf(ref));
  ASSERT_ACL_OK(acltdtFreeBuf(buf));  // and its chain
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtGetBufDataLen(tail, &len));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtFreeBuf(nullptr));
}

// A chain enqueued as a buffer comes out of acltdtDequeueData as its
// pieces' valid bytes, in order.
TEST_F(QueueTest, ChainsComeOutWhole) {
  const uint32_t qid = Queue(2);
  acltdtBuf head = nullptr, tail = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &head));
  ASSERT_ACL_OK(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &tail));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(acltdtGetBufData(head, &data, &size));
  std::memcpy(data, "abc", 3);
  ASSERT_ACL_OK(acltdtSetBufDataLen(head, 3));
  ASSERT_ACL_OK(acltdtGetBufData(tail, &data, &size));
  std::memcpy(data, "defg", 4);
  ASSERT_ACL_OK(acltdtSetBufDataLen(tail, 4));
  ASSERT_ACL_OK(acltdtAppendBufChain(head, tail));
  ASSERT_ACL_OK(acltdtEnqueue(qid, head, 0));
  char out[16] = {};
  ASSERT_ACL_OK(acltdtDequeueData(qid, out, sizeof out, &size, nullptr, 0, 0));
  EXPECT_EQ(size, 7u);
  EXPECT_STREQ(out, "abcdefg");
}

// 17-02 acltdtGrantQueue / acltdtAttachQueue: supported by no product.
TEST_F(QueueTest, SharingBetweenProcessesIsNotSupported) {
  const uint32_t qid = Queue(2);
  uint32_t permission = 0;
  EXPECT_ACL_ERROR(
      ACL_ERROR_FEATURE_UNSUPPORTED,
      acltdtGrantQueue(qid, 1, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_FEATURE_UNSUPPORTED,
                   acltdtAttachQueue(qid, 0, &permission));
}

// Producers and consumers on one queue: nothing lost or repeated.
TEST_F(QueueTest, ConcurrentProducersAndConsumers) {
  const uint32_t qid = Queue(4);
  constexpr int kProducers = 3, kEach = 60;
  std::vector<std::thread> threads;
  std::vector<std::atomic<int>> seen(kProducers * kEach);
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      EXPECT_ACL_OK(aclrtSetDevice(0));
      for (int i = 0; i < kEach; ++i)
        EXPECT_ACL_OK(Put(qid, p * kEach + i, -1));
    });
  }
  for (int c = 0; c < 2; ++c) {
    threads.emplace_back([&] {
      EXPECT_ACL_OK(aclrtSetDevice(0));
      for (int n = 0; n < kProducers * kEach / 2; ++n) {
        const int32_t v = Take(qid, 5000);
        ASSERT_GE(v, 0);
        seen[v]++;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& count : seen) EXPECT_EQ(count.load(), 1);
}

}  // namespace
}  // namespace ascend
