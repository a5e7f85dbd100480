// Sample: threads taking turns through 64-bit value waits and writes.
//
// Four worker threads share the main thread's context and each create their
// own stream. Worker i queues: wait until the device word `turn` equals i + 1
// (aclrtValueWait, ACL_STREAM_WAIT_VALUE_EQ), a host-function "kernel" that
// stamps its arrival order into device memory, then a write of i + 2 to
// `turn` (aclrtValueWrite) that lets the next worker through. The workers
// start in reverse order; the main thread starts the chain by writing 1 on
// its own stream once every worker has queued its work. The stamps read back
// must be 0, 1, 2, 3 and `turn` must end at 5.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr int kWorkers = 4;
// Device layout: word 0 is `turn`, words 1..kWorkers the stamps.
constexpr size_t kWords = 1 + kWorkers;
constexpr size_t kSize = kWords * sizeof(uint64_t);

struct StampArgs {
  uint64_t* slot;                  // device memory
  std::atomic<uint64_t>* counter;  // arrival order, host memory
};

void StampKernel(void* raw) {
  auto* args = static_cast<StampArgs*>(raw);
  *args->slot = args->counter->fetch_add(1);
}

struct Worker {
  int index = 0;
  aclrtContext context = nullptr;
  uint64_t* words = nullptr;  // device memory
  StampArgs stamp{};
  std::atomic<bool> queued{false};
  int result = -1;
};

int RunWorker(Worker* w) {
  CHECK_ERROR(aclrtSetCurrentContext(w->context));
  aclrtStream stream = nullptr;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const uint64_t my_turn = static_cast<uint64_t>(w->index) + 1;
  aclError ret =
      aclrtValueWait(w->words, my_turn, ACL_STREAM_WAIT_VALUE_EQ, stream);
  if (ret == ACL_SUCCESS) {
    ret = aclrtLaunchHostFunc(stream, StampKernel, &w->stamp);
  }
  if (ret == ACL_SUCCESS) {
    ret = aclrtValueWrite(w->words, my_turn + 1, 0, stream);
  }
  w->queued.store(true);
  if (ret != ACL_SUCCESS) {
    ERROR_LOG("worker %d: queueing failed with error %d", w->index, ret);
    (void)aclrtDestroyStreamForce(stream);
    return -1;
  }
  INFO_LOG("worker %d: queued wait for turn %llu", w->index,
           static_cast<unsigned long long>(my_turn));
  // Bounded: a broken chain fails the sample instead of hanging it.
  ret = aclrtSynchronizeStreamWithTimeout(stream, 10000);
  if (ret != ACL_SUCCESS) {
    ERROR_LOG("worker %d: stream did not finish (error %d)", w->index, ret);
    (void)aclrtDestroyStreamForce(stream);
    return -1;
  }
  INFO_LOG("worker %d: done, passed turn %llu on", w->index,
           static_cast<unsigned long long>(my_turn + 1));
  CHECK_ERROR(aclrtDestroyStream(stream));
  return 0;
}

int RunWorkers(void* device) {
  aclrtContext context = nullptr;
  CHECK_ERROR(aclrtGetCurrentContext(&context));
  auto* words = static_cast<uint64_t*>(device);
  std::atomic<uint64_t> counter{0};
  std::vector<Worker> workers(kWorkers);
  std::vector<std::thread> threads;
  for (int i = kWorkers - 1; i >= 0; --i) {
    Worker& w = workers[i];
    w.index = i;
    w.context = context;
    w.words = words;
    w.stamp = StampArgs{words + 1 + i, &counter};
    threads.emplace_back([&w] {
      w.result = RunWorker(&w);
      w.queued.store(true);  // also when it failed before queueing
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (Worker& w : workers) {
    while (!w.queued.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  INFO_LOG("main: all workers queued; writing turn 1");
  aclError start = aclrtValueWrite(words, 1, 0, nullptr);
  if (start == ACL_SUCCESS) start = aclrtSynchronizeStream(nullptr);
  if (start != ACL_SUCCESS) {
    ERROR_LOG("main: starting the chain failed with error %d", start);
  }
  for (std::thread& t : threads) t.join();
  if (start != ACL_SUCCESS) return -1;
  for (const Worker& w : workers) {
    if (w.result != 0) return -1;
  }

  std::vector<uint64_t> back(kWords, 0);
  CHECK_ERROR(aclrtMemcpy(back.data(), kSize, device, kSize,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  if (back[0] != kWorkers + 1) {
    ERROR_LOG("turn is %llu, expected %d",
              static_cast<unsigned long long>(back[0]), kWorkers + 1);
    return -1;
  }
  for (int i = 0; i < kWorkers; ++i) {
    INFO_LOG("worker %d arrived at position %llu", i,
             static_cast<unsigned long long>(back[1 + i]));
    if (back[1 + i] != static_cast<uint64_t>(i)) {
      ERROR_LOG("worker %d ran out of turn", i);
      return -1;
    }
  }
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  void* device = nullptr;
  CHECK_ERROR(aclrtMalloc(&device, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  INFO_LOG("device words allocated (zero-filled): turn + %d stamps", kWorkers);
  int result = RunWorkers(device);
  CHECK_ERROR(aclrtFree(device));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
