// Sample: a captured graph across a process snapshot.
//
// A graph is captured on one stream: D2D copy src -> dst, memset of fill to
// 0x77, a host function counting its runs, a value write of kWordValue. It
// is replayed once and checked. Then the process is snapshotted:
// aclrtSnapShotProcessLock, Backup, the simulator loses the device's memory
// (aclsimInjectFault, ACLSIM_FAULT_DEVICE_MEMORY_LOSS), Restore, Unlock.
// Afterwards the model handle is still the same model (aclmdlRIGetId, its
// stream and task counts), the device memory is back (src, and the first
// replay's outputs), and a second replay, after the outputs are cleared,
// writes the same bytes and runs the host function once more.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"
#include "aclsim/aclsim.h"

namespace {

constexpr size_t kBytes = 8192;
constexpr uint64_t kWordValue = 0x5EED5EED;

std::atomic<int> g_host_runs{0};

void CountRun(void*) { g_host_runs.fetch_add(1); }

struct Buffers {
  uint8_t* src = nullptr;
  uint8_t* dst = nullptr;
  uint8_t* fill = nullptr;
  uint64_t* word = nullptr;
};

uint8_t SrcByte(size_t i) { return static_cast<uint8_t>(i * 7 + 3); }

// dst == the src pattern, fill == 0x77, *word == kWordValue.
int VerifyOutputs(const Buffers& b, const char* when) {
  std::vector<uint8_t> dst(kBytes), fill(kBytes);
  CHECK_ERROR(aclrtMemcpy(dst.data(), kBytes, b.dst, kBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ERROR(aclrtMemcpy(fill.data(), kBytes, b.fill, kBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  uint64_t word = 0;
  CHECK_ERROR(aclrtMemcpy(&word, sizeof word, b.word, sizeof word,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kBytes; ++i) {
    if (dst[i] != SrcByte(i) || fill[i] != 0x77) {
      ERROR_LOG("%s: byte %zu is dst 0x%02x (want 0x%02x), fill 0x%02x", when,
                i, dst[i], SrcByte(i), fill[i]);
      return -1;
    }
  }
  if (word != kWordValue) {
    ERROR_LOG("%s: the word is 0x%llx", when,
              static_cast<unsigned long long>(word));
    return -1;
  }
  return 0;
}

int Replay(aclmdlRI model, aclrtStream exec, const Buffers& b, int runs,
           const char* when) {
  CHECK_ERROR(aclrtMemset(b.dst, kBytes, 0, kBytes));
  CHECK_ERROR(aclrtMemset(b.fill, kBytes, 0, kBytes));
  CHECK_ERROR(aclrtMemset(b.word, sizeof(uint64_t), 0, sizeof(uint64_t)));
  CHECK_ERROR(aclmdlRIExecuteAsync(model, exec));
  CHECK_ERROR(aclrtSynchronizeStream(exec));
  if (VerifyOutputs(b, when) != 0) return -1;
  if (g_host_runs.load() != runs) {
    ERROR_LOG("%s: the host function ran %d times, expected %d", when,
              g_host_runs.load(), runs);
    return -1;
  }
  INFO_LOG("%s: outputs as captured, host function run %d time(s)", when, runs);
  return 0;
}

// The model's id, stream count and task count.
struct Shape {
  uint32_t id = 0;
  uint32_t streams = 0;
  uint32_t tasks = 0;
};

int GetShape(aclmdlRI model, Shape* shape) {
  CHECK_ERROR(aclmdlRIGetId(model, &shape->id));
  aclrtStream stream = nullptr;
  shape->streams = 1;
  CHECK_ERROR(aclmdlRIGetStreams(model, &stream, &shape->streams));
  CHECK_ERROR(aclmdlRIGetTasksByStream(stream, nullptr, &shape->tasks));
  return 0;
}

int Snapshot() {
  const int pid = static_cast<int>(getpid());
  aclError snap = aclrtSnapShotProcessLock(pid, nullptr);
  if (snap == ACL_SUCCESS) snap = aclrtSnapShotProcessBackup(pid, nullptr);
  if (snap == ACL_SUCCESS) {
    snap = aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS);
  }
  if (snap == ACL_SUCCESS) snap = aclrtSnapShotProcessRestore(pid, nullptr);
  const aclError unlocked = aclrtSnapShotProcessUnlock(pid, nullptr);
  CHECK_ERROR(snap);
  CHECK_ERROR(unlocked);
  INFO_LOG("snapshot: locked, backed up, device memory lost, restored");
  return 0;
}

int RunGraph(aclrtStream capture, aclrtStream exec, const Buffers& b) {
  aclmdlRI model = nullptr;
  CHECK_ERROR(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  CHECK_ERROR(aclrtMemcpyAsync(b.dst, kBytes, b.src, kBytes,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, capture));
  CHECK_ERROR(aclrtMemsetAsync(b.fill, kBytes, 0x77, kBytes, capture));
  CHECK_ERROR(aclrtLaunchHostFunc(capture, CountRun, nullptr));
  CHECK_ERROR(aclrtValueWrite(b.word, kWordValue, 0, capture));
  CHECK_ERROR(aclmdlRICaptureEnd(capture, &model));

  int result = Replay(model, exec, b, 1, "replay before the snapshot");
  Shape before, after;
  if (result == 0) result = GetShape(model, &before);
  if (result == 0) result = Snapshot();
  if (result == 0) result = GetShape(model, &after);
  if (result == 0) {
    INFO_LOG("model id %u (was %u), %u stream(s) (was %u), %u task(s) (was %u)",
             after.id, before.id, after.streams, before.streams, after.tasks,
             before.tasks);
    if (after.id != before.id || after.streams != before.streams ||
        after.tasks != before.tasks || before.tasks != 4) {
      ERROR_LOG("the model changed across the snapshot");
      result = -1;
    }
  }
  // Device memory is back: the first replay's outputs are still there.
  if (result == 0) result = VerifyOutputs(b, "restored memory");
  if (result == 0 && g_host_runs.load() != 1) {
    ERROR_LOG("the snapshot ran the host function (%d runs)",
              g_host_runs.load());
    result = -1;
  }
  if (result == 0) result = Replay(model, exec, b, 2, "replay after restore");
  CHECK_ERROR(aclmdlRIDestroy(model));
  return result;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream capture = nullptr, exec = nullptr;
  CHECK_ERROR(aclrtCreateStream(&capture));
  CHECK_ERROR(aclrtCreateStream(&exec));
  Buffers b;
  void* p[4] = {nullptr, nullptr, nullptr, nullptr};
  for (void*& ptr : p) {
    CHECK_ERROR(aclrtMalloc(&ptr, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  b.src = static_cast<uint8_t*>(p[0]);
  b.dst = static_cast<uint8_t*>(p[1]);
  b.fill = static_cast<uint8_t*>(p[2]);
  b.word = static_cast<uint64_t*>(p[3]);
  std::vector<uint8_t> src(kBytes);
  for (size_t i = 0; i < kBytes; ++i) src[i] = SrcByte(i);
  CHECK_ERROR(aclrtMemcpy(b.src, kBytes, src.data(), kBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE));

  const int result = RunGraph(capture, exec, b);

  for (void* ptr : p) CHECK_ERROR(aclrtFree(ptr));
  CHECK_ERROR(aclrtDestroyStream(exec));
  CHECK_ERROR(aclrtDestroyStream(capture));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
