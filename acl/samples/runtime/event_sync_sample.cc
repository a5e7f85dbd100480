// Sample: two streams synchronised through an event.
//
// A producer stream copies input to the device and runs a host-function
// "kernel" that squares every element in place (simulated device memory is
// host-addressable), then records an event. A consumer stream waits for that
// event, runs a second "kernel" that adds 1 to every element, and copies the
// result back. The consumer is checked to wait (it cannot finish while the
// producer is held), and the result must be x*x + 1 for every element. The
// time between two events around the producer's work is printed.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr size_t kCount = 64 * 1024;
constexpr size_t kSize = kCount * sizeof(int64_t);

struct Kernel {
  int64_t* data;  // device memory
  size_t count;
};

void SquareKernel(void* raw) {
  auto* k = static_cast<Kernel*>(raw);
  for (size_t i = 0; i < k->count; ++i) k->data[i] *= k->data[i];
}

void AddOneKernel(void* raw) {
  auto* k = static_cast<Kernel*>(raw);
  for (size_t i = 0; i < k->count; ++i) k->data[i] += 1;
}

// Holds the producer stream until released (at most 10 s), so the sample can
// show that the consumer really waits.
struct Hold {
  std::mutex mu;
  std::condition_variable cv;
  bool released = false;
};

void HoldKernel(void* raw) {
  auto* hold = static_cast<Hold*>(raw);
  std::unique_lock<std::mutex> lock(hold->mu);
  hold->cv.wait_for(lock, std::chrono::seconds(10),
                    [hold] { return hold->released; });
}

void Release(Hold* hold) {
  std::lock_guard<std::mutex> lock(hold->mu);
  hold->released = true;
  hold->cv.notify_all();
}

// Releases the producer and drains both streams on every way out of
// RunStreams, so no queued task outlives the buffers it uses.
struct DrainOnExit {
  Hold* hold;
  aclrtStream producer;
  aclrtStream consumer;
  ~DrainOnExit() {
    Release(hold);
    (void)aclrtSynchronizeStream(producer);
    (void)aclrtSynchronizeStream(consumer);
  }
};

int RunStreams(void* device, aclrtStream producer, aclrtStream consumer,
               aclrtEvent start, aclrtEvent ready) {
  std::vector<int64_t> input(kCount);
  for (size_t i = 0; i < kCount; ++i) input[i] = static_cast<int64_t>(i) - 500;
  std::vector<int64_t> output(kCount, 0);
  Kernel kernel{static_cast<int64_t*>(device), kCount};
  Hold hold;
  DrainOnExit drain{&hold, producer, consumer};

  CHECK_ERROR(aclrtRecordEvent(start, producer));
  CHECK_ERROR(aclrtLaunchHostFunc(producer, HoldKernel, &hold));
  CHECK_ERROR(aclrtMemcpyAsync(device, kSize, input.data(), kSize,
                               ACL_MEMCPY_HOST_TO_DEVICE, producer));
  CHECK_ERROR(aclrtLaunchHostFunc(producer, SquareKernel, &kernel));
  CHECK_ERROR(aclrtRecordEvent(ready, producer));
  INFO_LOG("producer: copy, square kernel and event record queued");

  CHECK_ERROR(aclrtStreamWaitEvent(consumer, ready));
  CHECK_ERROR(aclrtLaunchHostFunc(consumer, AddOneKernel, &kernel));
  CHECK_ERROR(aclrtMemcpyAsync(output.data(), kSize, device, kSize,
                               ACL_MEMCPY_DEVICE_TO_HOST, consumer));
  INFO_LOG("consumer: event wait, add-one kernel and copy back queued");

  aclError early = aclrtSynchronizeStreamWithTimeout(consumer, 50);
  Release(&hold);
  if (early != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
    ERROR_LOG("consumer finished before the producer (result %d)", early);
    return -1;
  }
  INFO_LOG("consumer is waiting for the producer's event, as it should");

  CHECK_ERROR(aclrtSynchronizeStream(consumer));
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_ERROR(aclrtQueryEventStatus(ready, &status));
  if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
    ERROR_LOG("the producer's event is not complete");
    return -1;
  }
  float ms = 0;
  CHECK_ERROR(aclrtEventElapsedTime(&ms, start, ready));
  INFO_LOG("producer work took %.3f ms between its two events", ms);

  for (size_t i = 0; i < kCount; ++i) {
    const int64_t want = input[i] * input[i] + 1;
    if (output[i] != want) {
      ERROR_LOG("element %zu is %lld, expected %lld", i,
                static_cast<long long>(output[i]),
                static_cast<long long>(want));
      return -1;
    }
  }
  INFO_LOG("all %zu elements equal x*x + 1", kCount);
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream producer = nullptr;
  aclrtStream consumer = nullptr;
  aclrtEvent start = nullptr;
  aclrtEvent ready = nullptr;
  void* device = nullptr;
  CHECK_ERROR(aclrtCreateStream(&producer));
  CHECK_ERROR(aclrtCreateStream(&consumer));
  CHECK_ERROR(aclrtCreateEvent(&start));
  CHECK_ERROR(aclrtCreateEvent(&ready));
  CHECK_ERROR(aclrtMalloc(&device, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  INFO_LOG("two streams, two events and %zu bytes of device memory created",
           kSize);
  int result = RunStreams(device, producer, consumer, start, ready);
  CHECK_ERROR(aclrtFree(device));
  CHECK_ERROR(aclrtDestroyEvent(start));
  CHECK_ERROR(aclrtDestroyEvent(ready));
  CHECK_ERROR(aclrtDestroyStream(producer));
  CHECK_ERROR(aclrtDestroyStream(consumer));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
