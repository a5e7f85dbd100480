// Channels through the C API (doc 17-01_tensor_data_transfer): order,
// capacity, timeouts, stop, clean, destroy, device data channels, and the
// errors of each function.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
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

class ChannelTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    for (acltdtDataset* dataset : datasets_) {
      const size_t n = acltdtGetDatasetSize(dataset);
      if (received_.count(dataset) == 0) {  // the test's items
        for (size_t i = 0; i < n; ++i) {
          EXPECT_ACL_OK(acltdtDestroyDataItem(acltdtGetDataItem(dataset, i)));
        }
      }
      EXPECT_ACL_OK(acltdtDestroyDataset(dataset));
    }
    for (acltdtChannelHandle* channel : channels_) {
      EXPECT_ACL_OK(acltdtDestroyChannel(channel));
    }
  }

  acltdtChannelHandle* Channel(const std::string& name, size_t capacity) {
    acltdtChannelHandle* channel =
        acltdtCreateChannelWithCapacity(0, name.c_str(), capacity);
    if (channel != nullptr) channels_.push_back(channel);
    return channel;
  }
  // A dataset of one float tensor {value, value + 1}.
  acltdtDataset* Floats(float value) {
    auto& storage = storage_.emplace_back(std::vector<float>{value, value + 1});
    const int64_t dims[] = {1, 2};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT,
                             storage.data(), storage.size() * sizeof(float));
    acltdtDataset* dataset = acltdtCreateDataset();
    EXPECT_ACL_OK(acltdtAddDataItem(dataset, item));
    datasets_.push_back(dataset);
    return dataset;
  }
  acltdtDataset* Receiver() {
    acltdtDataset* dataset = acltdtCreateDataset();
    datasets_.push_back(dataset);
    received_.insert(dataset);
    return dataset;
  }
  static float First(const acltdtDataset* dataset) {
    const acltdtDataItem* item = acltdtGetDataItem(dataset, 0);
    if (item == nullptr) return -1;
    return static_cast<const float*>(acltdtGetDataAddrFromItem(item))[0];
  }

  std::vector<acltdtChannelHandle*> channels_;
  std::vector<acltdtDataset*> datasets_;
  std::set<acltdtDataset*> received_;
  std::deque<std::vector<float>> storage_;
};

// 17-01 acltdtSendTensor / acltdtReceiveTensor / acltdtQueryChannelSize:
// datasets arrive in order, with their types, shapes and bytes.
TEST_F(ChannelTest, DeliversDatasetsInOrder) {
  acltdtChannelHandle* channel = Channel("order", 4);
  ASSERT_NE(channel, nullptr);
  for (float v : {10.0f, 20.0f, 30.0f}) {
    ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(v), 0));
  }
  size_t size = 0;
  ASSERT_ACL_OK(acltdtQueryChannelSize(channel, &size));
  EXPECT_EQ(size, 3u);
  acltdtDataset* got = Receiver();
  for (float v : {10.0f, 20.0f, 30.0f}) {
    ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));  // replaces the items
    ASSERT_EQ(acltdtGetDatasetSize(got), 1u);
    const acltdtDataItem* item = acltdtGetDataItem(got, 0);
    EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_TENSOR);
    EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_FLOAT);
    EXPECT_EQ(acltdtGetDataSizeFromItem(item), 2 * sizeof(float));
    int64_t dims[2];
    ASSERT_ACL_OK(acltdtGetDimsFromItem(item, dims, 2));
    EXPECT_EQ(dims[0], 1);
    EXPECT_EQ(dims[1], 2);
    const float* data =
        static_cast<const float*>(acltdtGetDataAddrFromItem(item));
    EXPECT_EQ(data[0], v);
    EXPECT_EQ(data[1], v + 1);
    EXPECT_STREQ(acltdtGetDatasetName(got), "");
  }
  ASSERT_ACL_OK(acltdtQueryChannelSize(channel, &size));
  EXPECT_EQ(size, 0u);
}

// 17-01 acltdtSendTensor: the bytes are copied when sent.
TEST_F(ChannelTest, SendCopiesTheData) {
  acltdtChannelHandle* channel = Channel("copy", 2);
  acltdtDataset* sent = Floats(1);
  ASSERT_ACL_OK(acltdtSendTensor(channel, sent, -1));
  storage_.back()[0] = 99;  // the sender's memory changes afterwards
  acltdtDataset* got = Receiver();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, -1));
  EXPECT_EQ(First(got), 1);
}

// 17-01 acltdtSendTensor from device memory (25-03 acltdtAddDataItem).
TEST_F(ChannelTest, DeviceDataIsSentByValue) {
  acltdtChannelHandle* channel = Channel("device", 2);
  const float host[3] = {4, 5, 6};
  void* device = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&device, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(device, sizeof host, host, sizeof host,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  const int64_t dims[] = {3};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1,
                                              ACL_FLOAT, device, sizeof host);
  acltdtDataset* dataset = acltdtCreateDataset();
  datasets_.push_back(dataset);
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, item));
  ASSERT_ACL_OK(acltdtSendTensor(channel, dataset, 0));
  ASSERT_ACL_OK(aclrtFree(device));  // the channel holds a copy
  acltdtDataset* got = Receiver();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  const float* data = static_cast<const float*>(
      acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)));
  EXPECT_EQ(data[0], 4);
  EXPECT_EQ(data[2], 6);
}

// 25-02 acltdtTensorType: end-of-sequence and abnormal items travel without
// data; slices (device producers only) cannot be sent.
TEST_F(ChannelTest, ItemKindsThatCanAndCannotBeSent) {
  acltdtChannelHandle* channel = Channel("kinds", 2);
  acltdtDataset* dataset = Floats(7);
  acltdtDataItem* end =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0,
                           ACL_DT_UNDEFINED, nullptr, 0);
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, end));
  ASSERT_ACL_OK(acltdtSendTensor(channel, dataset, 0));
  acltdtDataset* got = Receiver();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  ASSERT_EQ(acltdtGetDatasetSize(got), 2u);
  const acltdtDataItem* second = acltdtGetDataItem(got, 1);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(second),
            ACL_TENSOR_DATA_END_OF_SEQUENCE);
  EXPECT_EQ(acltdtGetDataAddrFromItem(second), nullptr);
  EXPECT_EQ(acltdtGetDataSizeFromItem(second), 0u);

  for (acltdtTensorType type :
       {ACL_TENSOR_DATA_SLICE_TENSOR, ACL_TENSOR_DATA_END_TENSOR,
        ACL_TENSOR_DATA_UNDEFINED}) {
    acltdtDataset* bad = acltdtCreateDataset();
    datasets_.push_back(bad);
    acltdtDataItem* slice =
        acltdtCreateDataItem(type, nullptr, 0, ACL_DT_UNDEFINED, nullptr, 0);
    ASSERT_ACL_OK(acltdtAddDataItem(bad, slice));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     acltdtSendTensor(channel, bad, 0));
  }
  // A tensor claiming a size without data, and an empty dataset.
  acltdtDataset* hollow = acltdtCreateDataset();
  datasets_.push_back(hollow);
  const int64_t dims[] = {4};
  ASSERT_ACL_OK(acltdtAddDataItem(
      hollow, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT,
                                   nullptr, 16)));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(channel, hollow, 0));
  acltdtDataset* empty = acltdtCreateDataset();
  datasets_.push_back(empty);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(channel, empty, 0));
  size_t size = 9;
  ASSERT_ACL_OK(acltdtQueryChannelSize(channel, &size));
  EXPECT_EQ(size, 0u);  // nothing of the refused sends got in
}

// 17-01 acltdtCreateChannelWithCapacity (capacity) and the timeout rule of
// acltdtSendTensor / acltdtReceiveTensor: 0 answers at once, >0 waits.
TEST_F(ChannelTest, CapacityAndTimeouts) {
  acltdtChannelHandle* channel = Channel("capacity", 2);
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(1), 0));
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(2), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL,
                   acltdtSendTensor(channel, Floats(3), 0));
  auto start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL,
                   acltdtSendTensor(channel, Floats(3), 50));
  EXPECT_GE(MillisSince(start), 45);
  size_t size = 0;
  ASSERT_ACL_OK(acltdtQueryChannelSize(channel, &size));
  EXPECT_EQ(size, 2u);

  acltdtDataset* got = Receiver();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  EXPECT_EQ(First(got), 1);
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  EXPECT_EQ(First(got), 2);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_EMPTY,
                   acltdtReceiveTensor(channel, got, 0));
  start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_EMPTY,
                   acltdtReceiveTensor(channel, got, 40));
  EXPECT_GE(MillisSince(start), 35);
  EXPECT_EQ(First(got), 2);  // a failed receive keeps the last items
}

// 17-01 timeout -1: a blocked send and a blocked receive wake when they can.
TEST_F(ChannelTest, BlockedCallsWakeUp) {
  acltdtChannelHandle* channel = Channel("blocking", 2);
  acltdtDataset* got = Receiver();
  std::atomic<int> received{-1};
  std::thread receiver(
      [&] { received = acltdtReceiveTensor(channel, got, -1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(received.load(), -1);
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(5), -1));
  receiver.join();
  EXPECT_EQ(received.load(), ACL_SUCCESS);
  EXPECT_EQ(First(got), 5);

  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(6), -1));
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(7), -1));
  std::atomic<int> sent{-1};
  acltdtDataset* third = Floats(8);
  std::thread sender([&] { sent = acltdtSendTensor(channel, third, -1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(sent.load(), -1);
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, -1));
  sender.join();
  EXPECT_EQ(sent.load(), ACL_SUCCESS);
  for (float v : {7.0f, 8.0f}) {
    ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, -1));
    EXPECT_EQ(First(got), v);
  }
}

// 17-01 acltdtStopChannel: wakes blocked senders and receivers; afterwards
// sends and receives fail at once; size and clean still work.
TEST_F(ChannelTest, StopWakesBlockedThreads) {
  acltdtChannelHandle* empty = Channel("stop_empty", 2);
  acltdtChannelHandle* full = Channel("stop_full", 2);
  ASSERT_ACL_OK(acltdtSendTensor(full, Floats(1), 0));
  ASSERT_ACL_OK(acltdtSendTensor(full, Floats(2), 0));
  acltdtDataset* got = Receiver();
  acltdtDataset* more = Floats(3);
  std::atomic<int> received{-1}, sent{-1};
  std::thread receiver([&] { received = acltdtReceiveTensor(empty, got, -1); });
  std::thread sender([&] { sent = acltdtSendTensor(full, more, -1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  ASSERT_ACL_OK(acltdtStopChannel(empty));
  ASSERT_ACL_OK(acltdtStopChannel(full));
  receiver.join();
  sender.join();
  EXPECT_EQ(received.load(), ACL_ERROR_FAILURE);
  EXPECT_EQ(sent.load(), ACL_ERROR_FAILURE);
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acltdtSendTensor(empty, Floats(4), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acltdtReceiveTensor(full, got, 0));
  ASSERT_ACL_OK(acltdtStopChannel(full));  // twice is harmless
  size_t size = 0;
  ASSERT_ACL_OK(acltdtQueryChannelSize(full, &size));
  EXPECT_EQ(size, 2u);
  ASSERT_ACL_OK(acltdtCleanChannel(full));
  ASSERT_ACL_OK(acltdtQueryChannelSize(full, &size));
  EXPECT_EQ(size, 0u);
}

// 17-01 acltdtDestroyChannel with a receiver blocked on it.
TEST_F(ChannelTest, DestroyWakesBlockedReceiver) {
  acltdtChannelHandle* channel =
      acltdtCreateChannelWithCapacity(0, "destroyed", 2);
  ASSERT_NE(channel, nullptr);
  acltdtDataset* got = Receiver();
  std::atomic<int> received{-1};
  std::thread receiver(
      [&] { received = acltdtReceiveTensor(channel, got, -1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  ASSERT_ACL_OK(acltdtDestroyChannel(channel));
  receiver.join();
  EXPECT_EQ(received.load(), ACL_ERROR_FAILURE);
  // The handle is stale now, the name free again.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyChannel(channel));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(channel, Floats(1), 0));
  EXPECT_NE(Channel("destroyed", 2), nullptr);
}

// 17-01 acltdtCleanChannel drops what waits; the channel stays usable.
TEST_F(ChannelTest, CleanDropsWaitingDatasets) {
  acltdtChannelHandle* channel = Channel("clean", 3);
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(1), 0));
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(2), 0));
  ASSERT_ACL_OK(acltdtCleanChannel(channel));
  acltdtDataset* got = Receiver();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_EMPTY,
                   acltdtReceiveTensor(channel, got, 0));
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(3), 0));
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  EXPECT_EQ(First(got), 3);
}

// 17-01 acltdtCreateChannelWithCapacity: capacity in [2, 8192], a name of at
// most 127 bytes that no live channel with a capacity has, a device id below
// the device count.
TEST_F(ChannelTest, CreateChecksItsArguments) {
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, nullptr, 4), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "small", 1), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "large", 8193), nullptr);
  EXPECT_NE(Channel("smallest", 2), nullptr);
  EXPECT_NE(Channel("largest", 8192), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "smallest", 4), nullptr);
  EXPECT_EQ(
      acltdtCreateChannelWithCapacity(0, std::string(128, 'n').c_str(), 4),
      nullptr);
  EXPECT_NE(Channel(std::string(127, 'n'), 4), nullptr);
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(acltdtCreateChannelWithCapacity(count, "nodevice", 4), nullptr);
  EXPECT_EQ(acltdtCreateChannel(count, "nodevice"), nullptr);
  EXPECT_EQ(acltdtCreateChannel(0, nullptr), nullptr);
}

// 17-01: every channel function's NULL, stale-handle and timeout errors.
TEST_F(ChannelTest, ArgumentErrors) {
  acltdtChannelHandle* channel = Channel("errors", 2);
  acltdtDataset* dataset = Floats(1);
  size_t size = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(nullptr, dataset, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(channel, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(channel, dataset, -2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtReceiveTensor(nullptr, dataset, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtReceiveTensor(channel, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtReceiveTensor(channel, Receiver(), -5));
  // A dataset holding the caller's items cannot receive.
  ASSERT_ACL_OK(acltdtSendTensor(channel, dataset, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtReceiveTensor(channel, dataset, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtQueryChannelSize(nullptr, &size));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtQueryChannelSize(channel, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtStopChannel(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtCleanChannel(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyChannel(nullptr));
  // A handle this library never made.
  auto* forged = reinterpret_cast<acltdtChannelHandle*>(dataset);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtStopChannel(forged));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtQueryChannelSize(forged, &size));
}

// 25-03 acltdtAddDataItem / acltdtDestroyDataItem on a received dataset: it
// owns its items.
TEST_F(ChannelTest, ReceivedDatasetsOwnTheirItems) {
  acltdtChannelHandle* channel = Channel("owned", 2);
  ASSERT_ACL_OK(acltdtSendTensor(channel, Floats(1), 0));
  acltdtDataset* got = Receiver();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  acltdtDataItem* item = acltdtGetDataItem(got, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyDataItem(item));
  float value = 0;
  acltdtDataItem* mine = acltdtCreateDataItem(
      ACL_TENSOR_DATA_TENSOR, nullptr, 0, ACL_FLOAT, &value, sizeof value);
  EXPECT_ACL_ERROR(ACL_ERROR_FEATURE_UNSUPPORTED, acltdtAddDataItem(got, mine));
  EXPECT_EQ(acltdtGetDatasetSize(got), 1u);
  ASSERT_ACL_OK(acltdtDestroyDataItem(mine));
}

// 17-01 acltdtCreateChannel: the device data channels. What channel N sends
// waits on the device, which hands it to TF_RECEIVE_N; only timeout -1, no
// size query, no clean.
TEST_F(ChannelTest, DeviceDataChannels) {
  acltdtChannelHandle* feed = acltdtCreateChannel(0, "feed");
  acltdtChannelHandle* feed_again = acltdtCreateChannel(0, "feed");
  acltdtChannelHandle* back = acltdtCreateChannel(0, "TF_RECEIVE_feed");
  acltdtChannelHandle* other_device = acltdtCreateChannel(1, "TF_RECEIVE_feed");
  ASSERT_NE(feed, nullptr);
  ASSERT_NE(feed_again, nullptr);
  ASSERT_NE(back, nullptr);
  ASSERT_NE(other_device, nullptr);
  channels_.insert(channels_.end(), {feed, feed_again, back, other_device});
  ASSERT_ACL_OK(acltdtSendTensor(feed, Floats(1), -1));
  ASSERT_ACL_OK(acltdtSendTensor(feed_again, Floats(2), -1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSendTensor(feed, Floats(3), 0));
  acltdtDataset* got = Receiver();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtReceiveTensor(feed, got, -1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtReceiveTensor(back, got, 100));
  ASSERT_ACL_OK(acltdtReceiveTensor(back, got, -1));
  EXPECT_EQ(First(got), 1);
  ASSERT_ACL_OK(acltdtReceiveTensor(back, got, -1));
  EXPECT_EQ(First(got), 2);
  size_t size = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_FEATURE_UNSUPPORTED,
                   acltdtQueryChannelSize(feed, &size));
  EXPECT_ACL_ERROR(ACL_ERROR_FEATURE_UNSUPPORTED, acltdtCleanChannel(feed));
  // Device 1 got nothing: its receive blocks until stopped.
  std::atomic<int> received{-1};
  acltdtDataset* nothing = Receiver();
  std::thread receiver(
      [&] { received = acltdtReceiveTensor(other_device, nothing, -1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_ACL_OK(acltdtStopChannel(other_device));
  receiver.join();
  EXPECT_EQ(received.load(), ACL_ERROR_FAILURE);
}

// Several producers and consumers on one channel: nothing lost or repeated.
TEST_F(ChannelTest, ConcurrentProducersAndConsumers) {
  acltdtChannelHandle* channel = Channel("busy", 4);
  constexpr int kProducers = 3, kEach = 50;
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kEach; ++i) {
        int32_t value[2] = {p, i};
        const int64_t dims[] = {2};
        acltdtDataItem* item = acltdtCreateDataItem(
            ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, value, sizeof value);
        acltdtDataset* dataset = acltdtCreateDataset();
        EXPECT_ACL_OK(acltdtAddDataItem(dataset, item));
        EXPECT_ACL_OK(acltdtSendTensor(channel, dataset, -1));
        EXPECT_ACL_OK(acltdtDestroyDataItem(item));
        EXPECT_ACL_OK(acltdtDestroyDataset(dataset));
      }
    });
  }
  std::vector<std::vector<int>> seen(kProducers);
  std::mutex seen_mu;
  std::vector<std::thread> consumers;
  for (int c = 0; c < 2; ++c) {
    consumers.emplace_back([&] {
      acltdtDataset* got = acltdtCreateDataset();
      for (int n = 0; n < kProducers * kEach / 2; ++n) {
        ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 5000));
        const int32_t* v = static_cast<const int32_t*>(
            acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)));
        std::lock_guard<std::mutex> lock(seen_mu);
        seen[v[0]].push_back(v[1]);
      }
      EXPECT_ACL_OK(acltdtDestroyDataset(got));
    });
  }
  for (auto& t : threads) t.join();
  for (auto& t : consumers) t.join();
  for (int p = 0; p < kProducers; ++p) {
    ASSERT_EQ(seen[p].size(), static_cast<size_t>(kEach));
    std::vector<int> sorted = seen[p];
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < kEach; ++i) EXPECT_EQ(sorted[i], i);
  }
}

}  // namespace
}  // namespace ascend
