// Sample: kernels running across a process snapshot, as a framework's
// checkpoint/restore would see it.
//
// accumulate (snapshot_kernels.so, the first argument) adds i + 1 to every
// element i of a device buffer and 1 to the device global `launches`. After
// a few launches the process is snapshotted: Lock, Backup, the device loses
// its memory (aclsimInjectFault), Restore, Unlock. Meanwhile a background
// thread keeps launching `tick` (one block, +1 on the global `ticks`) on its
// own stream, as a framework's worker would; its launches wait while the
// process is locked. Afterwards:
//   * the binary, function and argument-list handles and the globals'
//     addresses are the same as before;
//   * the globals and the buffer kept their bytes;
//   * the next launches continue the sequence (launches == 100 + k,
//     buf[i] == k * (i + 1)), through the argument list made before;
//   * `ticks` equals the number of tick launches the thread made: none was
//     lost or run twice across the snapshot.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"
#include "aclsim/aclsim.h"

namespace {

const char* g_binary_path = "acl/samples/kernels/snapshot_kernels.so";
constexpr uint32_t kBlocks = 4;
constexpr uint32_t kElements = 10'000;
constexpr int64_t kLaunchesInitial = 100;

struct Handles {
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle accumulate = nullptr;
  aclrtFuncHandle tick = nullptr;
  aclrtArgsHandle args = nullptr;
  void* launches = nullptr;
  void* ticks = nullptr;
  void* buf = nullptr;
};

int64_t ReadI64(const void* p) {
  int64_t v = -1;
  if (aclrtMemcpy(&v, sizeof v, p, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST) !=
      ACL_SUCCESS) {
    ERROR_LOG("reading device address %p failed", p);
  }
  return v;
}

// launches == 100 + k and buf[i] == k * (i + 1).
int VerifySequence(const Handles& h, int64_t k, const char* when) {
  const int64_t launches = ReadI64(h.launches);
  if (launches != kLaunchesInitial + k) {
    ERROR_LOG("%s: launches is %lld, expected %lld", when,
              static_cast<long long>(launches),
              static_cast<long long>(kLaunchesInitial + k));
    return -1;
  }
  std::vector<int64_t> buf(kElements);
  CHECK_ERROR(aclrtMemcpy(buf.data(), kElements * sizeof(int64_t), h.buf,
                          kElements * sizeof(int64_t),
                          ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t i = 0; i < kElements; ++i) {
    if (buf[i] != k * (i + 1)) {
      ERROR_LOG("%s: buf[%u] is %lld, expected %lld", when, i,
                static_cast<long long>(buf[i]),
                static_cast<long long>(k * (i + 1)));
      return -1;
    }
  }
  INFO_LOG("%s: launches = %lld, buffer = %lld * (i + 1)", when,
           static_cast<long long>(launches), static_cast<long long>(k));
  return 0;
}

int Accumulate(const Handles& h, aclrtStream stream, int times) {
  for (int i = 0; i < times; ++i) {
    CHECK_ERROR(aclrtLaunchKernelWithConfig(h.accumulate, kBlocks, stream,
                                            nullptr, h.args, nullptr));
  }
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  return 0;
}

// The background worker: tick launches, each synchronized, until told to
// stop; counts the launches that succeeded.
struct Worker {
  std::atomic<bool> stop{false};
  std::atomic<bool> failed{false};
  std::atomic<int64_t> launched{0};
};

void WorkerLoop(Worker* w, aclrtFuncHandle tick) {
  aclrtStream stream = nullptr;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS) {
    ERROR_LOG("worker: cannot set device 0 or create a stream");
    w->failed = true;
    return;
  }
  while (!w->stop.load()) {
    aclError ret = aclrtLaunchKernelWithHostArgs(tick, 1, stream, nullptr,
                                                 nullptr, 0, nullptr, 0);
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(stream);
    if (ret != ACL_SUCCESS) {
      ERROR_LOG("worker: tick launch %lld failed with %d",
                static_cast<long long>(w->launched.load()), ret);
      w->failed = true;
      break;
    }
    ++w->launched;
  }
  if (aclrtDestroyStream(stream) != ACL_SUCCESS) w->failed = true;
}

int RunSnapshot(aclrtStream stream) {
  Handles h;
  CHECK_ERROR(aclrtBinaryLoadFromFile(g_binary_path, nullptr, &h.binary));
  CHECK_ERROR(aclrtBinaryGetFunction(h.binary, "accumulate", &h.accumulate));
  CHECK_ERROR(aclrtBinaryGetFunction(h.binary, "tick", &h.tick));
  size_t size = 0;
  CHECK_ERROR(aclrtBinaryGetGlobal(h.binary, "launches", &h.launches, &size));
  CHECK_ERROR(aclrtBinaryGetGlobal(h.binary, "ticks", &h.ticks, &size));
  CHECK_ERROR(aclrtMalloc(&h.buf, kElements * sizeof(int64_t),
                          ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMemset(h.buf, kElements * sizeof(int64_t), 0,
                          kElements * sizeof(int64_t)));
  CHECK_ERROR(aclrtKernelArgsInit(h.accumulate, &h.args));
  aclrtParamHandle param = nullptr;
  CHECK_ERROR(aclrtKernelArgsAppend(h.args, &h.buf, sizeof h.buf, &param));
  uint32_t n = kElements;
  CHECK_ERROR(aclrtKernelArgsAppend(h.args, &n, sizeof n, &param));
  CHECK_ERROR(aclrtKernelArgsFinalize(h.args));

  if (Accumulate(h, stream, 3) != 0) return -1;
  if (VerifySequence(h, 3, "before the snapshot") != 0) return -1;
  const Handles before = h;

  // The worker runs while the process is locked and snapshotted.
  Worker worker;
  std::thread thread(WorkerLoop, &worker, h.tick);
  while (worker.launched.load() < 20 && !worker.failed.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const int pid = static_cast<int>(getpid());
  // Locked, the worker's next launch waits at the gate (so do this
  // thread's gated calls, aclrtMemcpy among them: nothing is read here).
  aclError snap = aclrtSnapShotProcessLock(pid, nullptr);
  int64_t launched_locked = -1;
  if (snap == ACL_SUCCESS) {
    launched_locked = worker.launched.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // One launch may have passed the gate before the Lock.
    if (worker.launched.load() > launched_locked + 1) {
      ERROR_LOG(
          "the worker made %lld launches while the process was locked",
          static_cast<long long>(worker.launched.load() - launched_locked));
      snap = ACL_ERROR_FAILURE;
    }
  }
  if (snap == ACL_SUCCESS) snap = aclrtSnapShotProcessBackup(pid, nullptr);
  if (snap == ACL_SUCCESS) {
    snap = aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS);
  }
  if (snap == ACL_SUCCESS) snap = aclrtSnapShotProcessRestore(pid, nullptr);
  const aclError unlocked = aclrtSnapShotProcessUnlock(pid, nullptr);
  // Let the worker run on after the Unlock, then stop it.
  const int64_t target = worker.launched.load() + 20;
  while (unlocked == ACL_SUCCESS && worker.launched.load() < target &&
         !worker.failed.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  worker.stop = true;
  thread.join();
  CHECK_ERROR(snap);
  CHECK_ERROR(unlocked);
  if (worker.failed.load()) return -1;
  INFO_LOG(
      "snapshot taken with the worker launching: %lld launches at "
      "the lock, %lld in all",
      static_cast<long long>(launched_locked),
      static_cast<long long>(worker.launched.load()));

  // Same handles and addresses.
  aclrtFuncHandle accumulate = nullptr;
  CHECK_ERROR(aclrtBinaryGetFunction(h.binary, "accumulate", &accumulate));
  void* launches = nullptr;
  CHECK_ERROR(aclrtBinaryGetGlobal(h.binary, "launches", &launches, &size));
  if (accumulate != before.accumulate || launches != before.launches) {
    ERROR_LOG("handles or addresses changed across the snapshot");
    return -1;
  }
  // The globals and the buffer kept their bytes; the sequence goes on with
  // the argument list made before the snapshot.
  if (VerifySequence(h, 3, "after the snapshot") != 0) return -1;
  if (Accumulate(h, stream, 2) != 0) return -1;
  if (VerifySequence(h, 5, "two launches later") != 0) return -1;
  const int64_t ticks = ReadI64(h.ticks);
  if (ticks != worker.launched.load()) {
    ERROR_LOG("ticks is %lld, the worker launched %lld",
              static_cast<long long>(ticks),
              static_cast<long long>(worker.launched.load()));
    return -1;
  }
  INFO_LOG("ticks = %lld: every background launch ran once",
           static_cast<long long>(ticks));

  CHECK_ERROR(aclrtFree(h.buf));
  CHECK_ERROR(aclrtBinaryUnLoad(h.binary));
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const int result = RunSnapshot(stream);
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_binary_path = argv[1];
  return RunSample(Run);
}
