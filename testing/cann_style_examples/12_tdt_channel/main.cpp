// A producer thread streams tensors held in device memory through a TDT
// channel of capacity 4 to a consumer thread, ending with an
// end-of-sequence item; the consumer checks order and contents. Then a
// receiver waiting on an idle channel is woken by acltdtStopChannel.
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "acl/acl_tdt.h"
#include "common/example_utils.h"

namespace {

constexpr int kTensors = 16;
constexpr int kElements = 256;

// Sends kTensors tensors whose element i is n * 1000 + i, copied from device
// memory, then an end-of-sequence item.
int Produce(acltdtChannelHandle* channel) {
  EXAMPLE_CHECK(aclrtSetDevice(0));
  void* device = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&device, kElements * sizeof(int32_t),
                            ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<int32_t> host(kElements);
  const int64_t dims[] = {kElements};
  for (int n = 0; n < kTensors; ++n) {
    for (int i = 0; i < kElements; ++i) host[i] = n * 1000 + i;
    EXAMPLE_CHECK(aclrtMemcpy(device, host.size() * sizeof(int32_t),
                              host.data(), host.size() * sizeof(int32_t),
                              ACL_MEMCPY_HOST_TO_DEVICE));
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, device,
                             host.size() * sizeof(int32_t));
    acltdtDataset* dataset = acltdtCreateDataset();
    EXAMPLE_CHECK(acltdtAddDataItem(dataset, item));
    // The channel holds a copy: the device buffer is reused at once.
    EXAMPLE_CHECK(acltdtSendTensor(channel, dataset, -1));
    EXAMPLE_CHECK(acltdtDestroyDataItem(item));
    EXAMPLE_CHECK(acltdtDestroyDataset(dataset));
  }
  acltdtDataItem* end =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0,
                           ACL_DT_UNDEFINED, nullptr, 0);
  acltdtDataset* last = acltdtCreateDataset();
  EXAMPLE_CHECK(acltdtAddDataItem(last, end));
  EXAMPLE_CHECK(acltdtSendTensor(channel, last, -1));
  EXAMPLE_CHECK(acltdtDestroyDataItem(end));
  EXAMPLE_CHECK(acltdtDestroyDataset(last));
  EXAMPLE_CHECK(aclrtFree(device));
  return 0;
}

}  // namespace

int main() {
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  acltdtChannelHandle* channel =
      acltdtCreateChannelWithCapacity(0, "example_stream", 4);
  if (channel == nullptr) {
    EXAMPLE_ERROR("acltdtCreateChannelWithCapacity failed");
    return 1;
  }
  int produced = 1;
  std::thread producer([&] { produced = Produce(channel); });

  int in_order = 0;
  bool end_seen = false;
  acltdtDataset* received = acltdtCreateDataset();
  while (!end_seen) {
    const aclError ret = acltdtReceiveTensor(channel, received, 10000);
    if (ret != ACL_SUCCESS) {
      EXAMPLE_ERROR("acltdtReceiveTensor failed: %d", static_cast<int>(ret));
      (void)acltdtStopChannel(channel);  // releases a blocked producer
      break;
    }
    const acltdtDataItem* item = acltdtGetDataItem(received, 0);
    if (acltdtGetTensorTypeFromItem(item) == ACL_TENSOR_DATA_END_OF_SEQUENCE) {
      end_seen = true;
      continue;
    }
    const auto* values =
        static_cast<const int32_t*>(acltdtGetDataAddrFromItem(item));
    bool good = acltdtGetDataSizeFromItem(item) == kElements * sizeof(int32_t);
    for (int i = 0; good && i < kElements; ++i) {
      good = values[i] == in_order * 1000 + i;
    }
    if (good) ++in_order;
  }
  producer.join();
  if (!end_seen) return 1;
  EXAMPLE_INFO("producer finished: %d", produced);
  std::printf("Channel result: %d tensors in order, end of sequence %s\n",
              in_order, end_seen ? "seen" : "missing");

  // A receiver blocked on an empty channel is woken by a stop.
  aclError waited = ACL_SUCCESS;
  acltdtDataset* idle = acltdtCreateDataset();
  std::thread receiver(
      [&] { waited = acltdtReceiveTensor(channel, idle, -1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXAMPLE_CHECK(acltdtStopChannel(channel));
  receiver.join();
  std::printf("Stop woke the idle receiver: %d\n", static_cast<int>(waited));

  EXAMPLE_CHECK(acltdtDestroyDataset(idle));
  EXAMPLE_CHECK(acltdtDestroyDataset(received));
  EXAMPLE_CHECK(acltdtDestroyChannel(channel));
  EXAMPLE_CHECK(aclrtResetDevice(0));
  EXAMPLE_CHECK(aclFinalize());
  return produced == 0 && in_order == kTensors && end_seen ? 0 : 1;
}
