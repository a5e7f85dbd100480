// Sample: snapshots taken while worker threads keep issuing work.
//
// Each worker owns a stream, a counter in device memory and a pattern
// buffer. For every work item it copies the item number into its pattern
// buffer (aclrtMemcpy, host to device) and launches a host function on its
// stream that increments its device counter. Meanwhile the main thread
// locks, backs up and unlocks several times; on some rounds the device then
// loses its memory and a restore brings it back before the unlock.
//
// Calls that modify resources wait while the process is locked, and Backup
// drains every stream, so no work item is lost or run twice: at the end each
// device counter equals the number of host functions its worker launched,
// the host-side count of host-function runs agrees, and each pattern buffer
// holds its worker's last item number.
//
// Prints each step and ends with "VERDICT: PASS" or "VERDICT: FAIL".
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "runtime/rt_snapshot.h"

namespace {

constexpr int32_t kDevice = 0;
constexpr int kWorkers = 4;
constexpr uint32_t kItemsPerWorker = 3000;
constexpr size_t kPatternWords = 4096;  // 16 KiB pattern per worker
constexpr int kRounds = 6;

struct Worker {
  int index = 0;
  aclrtStream stream = nullptr;
  uint64_t* device_counter = nullptr;  // in device memory
  uint32_t* device_pattern = nullptr;  // in device memory
  std::atomic<uint64_t> host_runs{0};  // host functions that actually ran
  uint64_t launched = 0;
  aclError error = ACL_SUCCESS;
};

// Runs on the stream in order. Simulated device memory is host-addressable,
// so a host function can update the counter the way a kernel would.
void IncrementCounter(void* args) {
  Worker* w = static_cast<Worker*>(args);
  *w->device_counter += 1;
  w->host_runs.fetch_add(1, std::memory_order_relaxed);
}

void WorkerLoop(Worker* w) {
  aclError e = aclrtSetDevice(kDevice);
  if (e != ACL_SUCCESS) {
    w->error = e;
    return;
  }
  std::vector<uint32_t> pattern(kPatternWords);
  for (uint32_t item = 1; item <= kItemsPerWorker; ++item) {
    for (size_t k = 0; k < kPatternWords; ++k) pattern[k] = item;
    e = aclrtMemcpy(w->device_pattern, kPatternWords * sizeof(uint32_t),
                    pattern.data(), kPatternWords * sizeof(uint32_t),
                    ACL_MEMCPY_HOST_TO_DEVICE);
    if (e == ACL_SUCCESS) {
      e = aclrtLaunchHostFunc(w->stream, &IncrementCounter, w);
    }
    if (e != ACL_SUCCESS) {
      w->error = e;
      return;
    }
    ++w->launched;
    if (item % 64 == 0) {
      e = aclrtSynchronizeStream(w->stream);
      if (e != ACL_SUCCESS) {
        w->error = e;
        return;
      }
    }
  }
  w->error = aclrtSynchronizeStream(w->stream);
}

bool Check(aclError e, const char* what) {
  if (e != ACL_SUCCESS) {
    printf("  FAILED: %s returned %d\n", what, e);
    return false;
  }
  return true;
}

uint64_t Progress(const Worker* workers) {
  uint64_t total = 0;
  for (int i = 0; i < kWorkers; ++i) {
    total += workers[i].host_runs.load(std::memory_order_relaxed);
  }
  return total;
}

}  // namespace

int main() {
  printf("concurrent workers sample: %d workers x %u items, %d snapshots\n",
         kWorkers, kItemsPerWorker, kRounds);
  if (!Check(aclInit(nullptr), "aclInit")) {
    printf("VERDICT: FAIL\n");
    return 1;
  }
  bool ok = Check(aclrtSetDevice(kDevice), "aclrtSetDevice");
  Worker workers[kWorkers];
  for (int i = 0; ok && i < kWorkers; ++i) {
    Worker& w = workers[i];
    w.index = i;
    void* counter = nullptr;
    void* pattern = nullptr;
    ok = Check(aclrtCreateStream(&w.stream), "aclrtCreateStream") &&
         Check(
             aclrtMalloc(&counter, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST),
             "aclrtMalloc") &&
         Check(aclrtMalloc(&pattern, kPatternWords * sizeof(uint32_t),
                           ACL_MEM_MALLOC_HUGE_FIRST),
               "aclrtMalloc");
    w.device_counter = static_cast<uint64_t*>(counter);
    w.device_pattern = static_cast<uint32_t*>(pattern);
  }
  if (!ok) {
    printf("VERDICT: FAIL\n");
    return 1;
  }

  printf("[1] start the workers\n");
  std::vector<std::thread> threads;
  for (int i = 0; i < kWorkers; ++i)
    threads.emplace_back(WorkerLoop, &workers[i]);

  printf("[2] snapshot while they work\n");
  const int pid = static_cast<int>(getpid());
  int snapshots = 0;
  for (int round = 0; ok && round < kRounds; ++round) {
    // Let the workers get some work done between snapshots.
    const uint64_t before = Progress(workers);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (Progress(workers) < before + 200 &&
           Progress(workers) < kWorkers * uint64_t{kItemsPerWorker} &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const bool lose_memory = round % 2 == 1;
    ok = Check(aclrtSnapShotProcessLock(pid, nullptr), "lock") &&
         Check(aclrtSnapShotProcessBackup(pid, nullptr), "backup");
    if (!ok) break;
    // Backup drained every stream and nothing new runs while locked: the
    // device counters now agree with the host-side counts.
    uint64_t frozen_device = 0;
    uint64_t frozen_host = 0;
    for (const Worker& w : workers) {
      frozen_device += *w.device_counter;
      frozen_host += w.host_runs.load();
    }
    if (lose_memory) {
      ok = Check(aclsimInjectFault(kDevice, ACLSIM_FAULT_DEVICE_MEMORY_LOSS),
                 "inject memory loss");
      uint64_t lost = 0;
      for (const Worker& w : workers) lost += *w.device_counter;
      ok = ok && Check(aclrtSnapShotProcessRestore(pid, nullptr), "restore");
      uint64_t restored = 0;
      for (const Worker& w : workers) restored += *w.device_counter;
      printf(
          "  round %d: counters %llu, after memory loss %llu, restored "
          "%llu\n",
          round, static_cast<unsigned long long>(frozen_device),
          static_cast<unsigned long long>(lost),
          static_cast<unsigned long long>(restored));
      if (restored != frozen_device) {
        printf("  FAILED: restore did not bring the counters back\n");
        ok = false;
      }
    } else {
      printf("  round %d: counters %llu, host functions run %llu\n", round,
             static_cast<unsigned long long>(frozen_device),
             static_cast<unsigned long long>(frozen_host));
    }
    if (frozen_device != frozen_host) {
      printf(
          "  FAILED: device counters and host counts disagree while "
          "locked\n");
      ok = false;
    }
    ok = Check(aclrtSnapShotProcessUnlock(pid, nullptr), "unlock") && ok;
    ++snapshots;
  }

  printf("[3] wait for the workers\n");
  for (std::thread& t : threads) t.join();

  printf("[4] check that no work was lost or duplicated\n");
  for (Worker& w : workers) {
    uint64_t counter = 0;
    std::vector<uint32_t> pattern(kPatternWords);
    ok = Check(w.error, "worker") &&
         Check(aclrtMemcpy(&counter, sizeof(counter), w.device_counter,
                           sizeof(counter), ACL_MEMCPY_DEVICE_TO_HOST),
               "aclrtMemcpy") &&
         Check(aclrtMemcpy(pattern.data(), kPatternWords * sizeof(uint32_t),
                           w.device_pattern, kPatternWords * sizeof(uint32_t),
                           ACL_MEMCPY_DEVICE_TO_HOST),
               "aclrtMemcpy") &&
         ok;
    bool pattern_ok = true;
    for (uint32_t v : pattern) pattern_ok = pattern_ok && v == kItemsPerWorker;
    const uint64_t runs = w.host_runs.load();
    printf(
        "  worker %d: launched %llu, ran %llu, device counter %llu, "
        "pattern %s\n",
        w.index, static_cast<unsigned long long>(w.launched),
        static_cast<unsigned long long>(runs),
        static_cast<unsigned long long>(counter),
        pattern_ok ? "holds the last item" : "WRONG");
    if (w.launched != kItemsPerWorker || runs != w.launched ||
        counter != w.launched || !pattern_ok) {
      printf("  FAILED: worker %d lost or repeated work\n", w.index);
      ok = false;
    }
  }
  printf("  %d snapshots taken while the workers ran\n", snapshots);
  if (snapshots != kRounds) ok = false;

  for (Worker& w : workers) {
    ok = Check(aclrtDestroyStream(w.stream), "aclrtDestroyStream") && ok;
    ok = Check(aclrtFree(w.device_counter), "aclrtFree") && ok;
    ok = Check(aclrtFree(w.device_pattern), "aclrtFree") && ok;
  }
  ok = Check(aclrtResetDeviceForce(kDevice), "aclrtResetDeviceForce") && ok;
  ok = Check(aclFinalize(), "aclFinalize") && ok;
  printf("VERDICT: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
